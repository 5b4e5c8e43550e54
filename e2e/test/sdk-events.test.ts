/**
 * The sdk's `events()` against the real portal and worker: it reads the seeded tenant's whole
 * feed, resumes from the cursor it saved, polls once caught up until aborted, and the webhook
 * bodies the worker sends carry the sequence the feed gives the same events (SPEC §12).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Client, createClient, events, type FeedEvent } from '@erp/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Platform, startPlatform } from './platform';
import { createApiKey } from './sdk-api-key';

let platform: Platform;
let receiver: http.Server;
let receiverUrl: string;
const received: { id: string; type: string; sequence: number }[] = [];
let client: Client;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  platform = await startPlatform();
  client = createClient({
    baseUrl: platform.portalUrl,
    apiKey: (await createApiKey(platform, ['webhooks', 'crm:write'], 3000)).key,
    tenantId: 'demo',
  });
});
afterAll(async () => {
  await platform?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function createLead(title: string): Promise<string> {
  const { data, error } = await client.post('/api/v1/leads', {
    body: { title, contact_name: 'Ada Lovelace', company_name: 'Analytical SARL' },
  });
  expect(error).toBeUndefined();
  return data!.id;
}

describe('events()', () => {
  it('reads everything, resumes from its saved cursor, polls until aborted; webhooks carry the same sequence', async () => {
    const { error } = await client.post('/api/v1/settings/webhooks', {
      body: { url: receiverUrl, events: ['lead.created'] },
    });
    expect(error).toBeUndefined();

    // The seeded tenant's whole feed, then the end of the iteration (follow: false).
    let saved: string | undefined;
    const seeded: FeedEvent[] = [];
    for await (const event of events(client, {
      pageSize: 500,
      follow: false,
      onCursor: (cursor) => {
        saved = cursor;
      },
    })) {
      seeded.push(event);
    }
    expect(seeded.length).toBeGreaterThan(1000);
    expect(seeded.map((e) => e.sequence)).toEqual(seeded.map((_, i) => i + 1));
    expect(saved).toBe(String(seeded.length));

    // Resumed from the saved cursor: only what came after, then polling for more.
    const first = [await createLead('First'), await createLead('Second')];
    const controller = new AbortController();
    const resumed: FeedEvent[] = [];
    let later = '';
    for await (const event of events(client, {
      after: saved,
      pollIntervalMs: 50,
      signal: controller.signal,
    })) {
      resumed.push(event);
      if (resumed.length === 2) later = await createLead('Third'); // arrives by polling
      if (resumed.length === 3) controller.abort(); // ends the loop quietly
    }
    expect(resumed.map((e) => [e.sequence, e.type, e.data.object.id])).toEqual([
      [seeded.length + 1, 'lead.created', first[0]],
      [seeded.length + 2, 'lead.created', first[1]],
      [seeded.length + 3, 'lead.created', later],
    ]);

    // The worker's deliveries of those events carry the same numbers.
    await eventually('three deliveries', async () => received.length >= 3 && received);
    const sent = new Map(received.map((body) => [body.id, body.sequence]));
    for (const event of resumed) expect(sent.get(event.id)).toBe(event.sequence);

    // A type filter: only those, and an expired or foreign cursor is an ApiError.
    const leads: FeedEvent[] = [];
    for await (const event of events(client, { types: ['lead.created'], follow: false })) {
      leads.push(event);
    }
    expect(leads.length).toBeGreaterThanOrEqual(3);
    expect(leads.every((e) => e.type === 'lead.created')).toBe(true);
    const ahead = events(client, { after: 10_000_000, follow: false });
    await expect(ahead.next()).rejects.toMatchObject({ code: 'requete_invalide', status: 400 });
  });
});
