import { createHmac } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningWorker } from '../src/worker';
import {
  createSubscription,
  createTenant,
  deliveryLog,
  recordEvent,
  runWorker,
  startReceiver,
  waitFor,
} from './harness';

let database: TestDatabase;
let worker: RunningWorker;

beforeAll(async () => {
  database = await createTestDatabase();
  worker = await runWorker(database);
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

describe('a delivery, as an independent receiver sees it', () => {
  it('carries the SPEC body and headers; both signature schemes verify', async () => {
    const receiver = await startReceiver();
    const tenant = await createTenant(database);
    const sub = await createSubscription(database, tenant, receiver.url);
    const data = { object: { id: 'x', status: 'brouillon', label: 'é ✓ "quoted"' } };
    const eventId = await recordEvent(database, tenant, 'sales_order.created', data);
    const [request] = await waitFor(() => receiver.received.length > 0 && receiver.received);
    const h = request!.headers;
    const body = JSON.parse(request!.body);
    const [delivery] = await waitFor(async () => {
      const rows = await deliveryLog(database, eventId);
      return rows[0]?.status === 'delivered' && rows;
    });

    expect(body).toEqual({
      id: eventId,
      delivery_id: delivery.id,
      type: 'sales_order.created',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      tenant_id: tenant,
      sequence: 1, // the tenant's first event (SPEC §12)
      data,
    });
    expect(Object.keys(body)).toEqual([
      'id',
      'delivery_id',
      'type',
      'created_at',
      'tenant_id',
      'sequence',
      'data',
    ]);
    expect(h['x-service-event']).toBe('sales_order.created');
    expect(h['x-service-delivery-id']).toBe(delivery.id);
    expect(h['x-service-webhook-version']).toBe('2026-11-23');
    expect(h['content-type']).toBe('application/json');
    const ts = Number(h['x-service-timestamp']);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(30);
    // SPEC §7, recomputed here from its own words: hex HMAC-SHA256 of "<timestamp>.<raw body>",
    // keyed with the secret string's UTF-8 bytes.
    const expected = createHmac('sha256', Buffer.from(sub.secret, 'utf8'))
      .update(`${h['x-service-timestamp']}.${request!.body}`)
      .digest('hex');
    expect(h['x-service-signature']).toBe(`sha256=${expected}`);
    // The reference Standard Webhooks implementation accepts the same request.
    const verified = new Webhook(sub.secret).verify(request!.body, {
      'webhook-id': String(h['webhook-id']),
      'webhook-timestamp': String(h['webhook-timestamp']),
      'webhook-signature': String(h['webhook-signature']),
    });
    expect(verified).toEqual(body);
    expect(h['webhook-id']).toBe(delivery.id);
    // and refuses it under another secret or with a changed body
    expect(() =>
      new Webhook(sub.secret).verify(request!.body.replace('brouillon', 'confirme'), {
        'webhook-id': String(h['webhook-id']),
        'webhook-timestamp': String(h['webhook-timestamp']),
        'webhook-signature': String(h['webhook-signature']),
      }),
    ).toThrow();
    expect(delivery.attempts).toBe(1);
    expect(delivery.attempt_log).toHaveLength(1);
    expect(delivery.attempt_log[0].response_status).toBe(200);
    await receiver.close();
  });

  it('fans one event out to every matching enabled subscription, and to no other', async () => {
    const receiver = await startReceiver();
    const tenant = await createTenant(database);
    const other = await createTenant(database);
    const subs = await Promise.all(
      [0, 1, 2].map(() => createSubscription(database, tenant, receiver.url)),
    );
    await createSubscription(database, tenant, receiver.url, ['invoice.created']);
    const disabled = await createSubscription(database, tenant, receiver.url);
    await database.pool.query('UPDATE webhook_subscriptions SET enabled = false WHERE id = $1', [
      disabled.id,
    ]);
    await createSubscription(database, other, receiver.url);
    const eventId = await recordEvent(database, tenant);
    const rows = await waitFor(async () => {
      const r = await deliveryLog(database, eventId);
      return r.length === 3 && r.every((d) => d.status === 'delivered') && r;
    });
    expect(rows.map((d) => d.subscription_id).sort()).toEqual(subs.map((s) => s.id).sort());
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-delivery-id'])).size).toBe(3);
    await receiver.close();
  });

  it('a business transaction that rolls back produces no delivery', async () => {
    const receiver = await startReceiver();
    const tenant = await createTenant(database);
    await createSubscription(database, tenant, receiver.url);
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO events (tenant_id, type, resource, resource_id, data) VALUES ($1, 'sales_order.created', 'sales_order', gen_random_uuid(), '{}')`,
        [tenant],
      );
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    // A committed event after it is delivered: the worker is running and would have seen one.
    const eventId = await recordEvent(database, tenant);
    await waitFor(async () => (await deliveryLog(database, eventId))[0]?.status === 'delivered');
    expect(receiver.received).toHaveLength(1);
    const { rows } = await database.pool.query(
      'SELECT count(*)::int AS n FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.tenant_id = $1',
      [tenant],
    );
    expect(rows[0].n).toBe(1);
    await receiver.close();
  });
});
