/**
 * The sdk's batch() against the real portal process: a customer, its order and the order's
 * confirmation in one call, typed results; a failing step keeps nothing; the rate limit counts
 * every step.
 */
import { randomUUID } from 'node:crypto';
import { batch, type Client, createClient, eq, op, ref } from '@erp/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Platform, startPlatform } from './platform';
import { createApiKey } from './sdk-api-key';

let platform: Platform;
let client: Client;

beforeAll(async () => {
  platform = await startPlatform();
  client = createClient({
    baseUrl: platform.portalUrl,
    apiKey: (await createApiKey(platform, ['crm:write', 'sales:write'])).key,
    tenantId: 'demo',
  });
});
afterAll(() => platform?.close());

const customer = (name: string) =>
  op.post('/api/v1/customers', { body: { name, customer_type: 'company', active: true } });
const order = (customerId: string) =>
  op.post('/api/v1/sales-orders', {
    body: {
      customer_id: customerId,
      order_date: '2026-03-05',
      currency: 'EUR',
      lines: [{ description: 'Chaise', quantity: '2', unit_price_cents: 1500, tax_rate: '20' }],
    },
  });

describe('batch() against the portal', () => {
  it('creates a customer, an order for it and confirms it in one call, each result typed', async () => {
    const name = `Batch e2e ${randomUUID()}`;
    const { data, error } = await batch(client, [
      customer(name),
      order(ref(0, 'id')),
      op.post('/api/v1/sales-orders/{id}/confirm', { path: { id: ref(1, 'id') } }),
      op.get('/api/v1/sales-orders', { query: { customer_id: eq(ref(0, 'id')) } }),
    ]);
    expect(error).toBeUndefined();
    const [made, placed, confirmed, listed] = data!.results;
    expect(made.status).toBe(201);
    expect(placed.body.customer_id).toBe(made.body.id);
    expect(placed.body.total_cents).toBe(3600);
    expect(confirmed).toMatchObject({ status: 200, etag: '"2"', body: { status: 'confirme' } });
    expect(listed.body.data.map((o) => o.id)).toEqual([placed.body.id]);
    const read = await client.get('/api/v1/sales-orders/{id}', { path: { id: placed.body.id } });
    expect(read.data?.status).toBe('confirme');
  });

  it('keeps nothing when a step fails, and says which one', async () => {
    const name = `Batch e2e failed ${randomUUID()}`;
    const { data, error } = await batch(client, [customer(name), order(randomUUID())]);
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ code: 'requete_invalide', status: 400, params: { index: 1 } });
    const left = await client.get('/api/v1/customers', { query: { name: eq(name) } });
    expect(left.data?.data).toEqual([]);
  });

  it('counts every step against the key’s rate limit', async () => {
    const limited = createClient({
      baseUrl: platform.portalUrl,
      apiKey: (await createApiKey(platform, ['crm:read'], 30)).key,
      tenantId: 'demo',
      maxRetries: 0,
    });
    const twenty = Array.from({ length: 20 }, () =>
      op.get('/api/v1/customers', { query: { page_size: 1 } }),
    );
    const first = await batch(limited, twenty);
    expect(first.response?.headers.get('x-ratelimit-remaining')).toBe('10');
    const second = await batch(limited, twenty);
    expect(second.error).toMatchObject({ code: 'limite_depassee', status: 429 });
  });
});
