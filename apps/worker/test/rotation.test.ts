import { createHmac } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { generateSigningSecret } from '@erp/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningWorker } from '../src/worker';
import {
  box,
  createSubscription,
  createTenant,
  type ReceivedRequest,
  recordEvent,
  runWorker,
  startReceiver,
  waitFor,
} from './harness';

let database: TestDatabase;
let worker: RunningWorker;
/** The worker's clock runs this far ahead of the real one. */
const clock = { offsetMs: 0 };

beforeAll(async () => {
  database = await createTestDatabase();
  worker = await runWorker(database, {}, { now: () => new Date(Date.now() + clock.offsetMs) });
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

/** Rotates as the portal does: the new secret signs, the old one too until `overlapHours` pass. */
async function rotate(subscriptionId: string, previous: string, overlapHours: number) {
  const next = generateSigningSecret();
  await database.pool.query(
    `UPDATE webhook_subscriptions SET secret_sealed = $2, previous_secret_sealed = $3,
       previous_secret_expires_at = now() + $4 * interval '1 hour' WHERE id = $1`,
    [
      subscriptionId,
      box.seal(next, subscriptionId),
      box.seal(previous, subscriptionId),
      overlapHours,
    ],
  );
  return next;
}

const spec = (secret: string, r: ReceivedRequest) =>
  `sha256=${createHmac('sha256', secret).update(`${r.headers['x-service-timestamp']}.${r.body}`).digest('hex')}`;
const standard = (r: ReceivedRequest) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

async function deliverOne(tenant: string, receiver: Awaited<ReturnType<typeof startReceiver>>) {
  const before = receiver.received.length;
  await recordEvent(database, tenant);
  await waitFor(() => receiver.received.length > before);
  return receiver.received[before]!;
}

describe('secret rotation', () => {
  it('signs with both secrets during the overlap, with the new one alone after it', async () => {
    clock.offsetMs = 0;
    const receiver = await startReceiver();
    const tenant = await createTenant(database);
    const sub = await createSubscription(database, tenant, receiver.url);
    const next = await rotate(sub.id, sub.secret, 24);

    const during = await deliverOne(tenant, receiver);
    expect(during.headers['x-service-signature']).toBe(
      `${spec(next, during)},${spec(sub.secret, during)}`,
    );
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    // A receiver holding either secret verifies the delivery.
    expect(() => new Webhook(next).verify(during.body, standard(during))).not.toThrow();
    expect(() => new Webhook(sub.secret).verify(during.body, standard(during))).not.toThrow();
    expect(() =>
      new Webhook(generateSigningSecret()).verify(during.body, standard(during)),
    ).toThrow();

    clock.offsetMs = 25 * 3600 * 1000; // past the 24 h overlap
    const after = await deliverOne(tenant, receiver);
    expect(after.headers['x-service-signature']).toBe(spec(next, after));
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    clock.offsetMs = 0;
    await receiver.close();
  });

  it('an overlap of 0 retires the old secret at once', async () => {
    clock.offsetMs = 0;
    const receiver = await startReceiver();
    const tenant = await createTenant(database);
    const sub = await createSubscription(database, tenant, receiver.url);
    const next = await rotate(sub.id, sub.secret, 0);
    const request = await deliverOne(tenant, receiver);
    expect(request.headers['x-service-signature']).toBe(spec(next, request));
    expect(() => new Webhook(sub.secret).verify(request.body, standard(request))).toThrow();
    expect(() => new Webhook(next).verify(request.body, standard(request))).not.toThrow();
    await receiver.close();
  });
});
