/**
 * The sdk's history() against the real portal process: a seeded sales order (the seed writes
 * through the resource engine, as the demo admin) changed by an API key, read back page by page.
 */
import { ApiError, type Client, createClient, eq, history } from '@erp/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Platform, startPlatform } from './platform';
import { createApiKey } from './sdk-api-key';

let platform: Platform;
let client: Client;
let keyId: string;

beforeAll(async () => {
  platform = await startPlatform();
  const key = await createApiKey(platform, ['sales:read', 'sales:write']);
  keyId = key.id;
  client = createClient({ baseUrl: platform.portalUrl, apiKey: key.key, tenantId: 'demo' });
});
afterAll(() => platform?.close());

describe('history() against the portal', () => {
  it('iterates every version of a record newest first, across pages, with typed changes', async () => {
    const { data: page, error } = await client.get('/api/v1/sales-orders', {
      query: { status: eq('brouillon'), page_size: 1 },
    });
    expect(error).toBeUndefined();
    const order = page!.data[0]!;
    const id = order.id;
    const patched = await client.patch('/api/v1/sales-orders/{id}', {
      path: { id },
      body: { notes: 'Livraison par le quai 2' },
    });
    expect(patched.error).toBeUndefined();
    const confirmed = await client.post('/api/v1/sales-orders/{id}/confirm', { path: { id } });
    expect(confirmed.error).toBeUndefined();

    const versions = [];
    for await (const version of history(client, '/api/v1/sales-orders/{id}/history', id, {
      pageSize: 1,
    }))
      versions.push(version);
    const key = { type: 'api_key', id: keyId, name: expect.stringContaining('sdk e2e') };
    expect(versions.map(({ version, action, actor }) => ({ version, action, actor }))).toEqual([
      { version: 3, action: 'confirm', actor: key },
      { version: 2, action: 'update', actor: key },
      {
        version: 1,
        action: 'create',
        actor: { type: 'user', id: expect.any(String), name: 'Demo Admin' },
      },
    ]);
    expect(versions[0]!.changes).toEqual({ status: ['brouillon', 'confirme'] });
    expect(versions[1]!.changes).toEqual({ notes: [order.notes, 'Livraison par le quai 2'] });
    expect(versions[2]!.changes.number).toEqual([null, order.number]);

    // Resuming from a cursor skips what was already read.
    const first = await client.get('/api/v1/sales-orders/{id}/history', {
      path: { id },
      query: { page_size: 2 },
    });
    const rest = [];
    for await (const version of history(client, '/api/v1/sales-orders/{id}/history', id, {
      cursor: first.data!.next_cursor!,
    }))
      rest.push(version.version);
    expect(rest).toEqual([1]);
  });

  it('throws the portal’s error for a record the tenant never had', async () => {
    const unknown = history(
      client,
      '/api/v1/sales-orders/{id}/history',
      '0190a000-0000-7000-8000-000000000000',
    );
    const failure = await unknown.next().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ code: 'introuvable', status: 404 });
  });
});
