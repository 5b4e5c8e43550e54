import { randomUUID } from 'node:crypto';
import { catalogue } from '@erp/contract';
import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../seed';
import { createTestPortal } from '../../test/harness';
import { populate } from '../../test/resources-harness';
import {
  eventsOf,
  fakeResolveHost,
  HOOKS,
  queuedJobs,
  subscribe,
  webhookWorld,
} from '../../test/webhooks-harness';

/**
 * The webhook outbox seen from the portal: a business write records its event and nothing
 * else (no job, no NOTIFY while no worker sleeps); the tenant's cursor, opened by its first
 * subscription, is what the worker follows once the event is numbered (the worker's tests
 * cover what it then delivers).
 */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
beforeAll(async () => {
  portal = await createTestPortal({}, undefined, { resolveHost: fakeResolveHost });
});
afterAll(() => portal.tdb.close());

const byName = new Map(catalogue.map((r) => [r.name, r]));
const resource = (name: string) => byName.get(name)!;

/** The tenant's outbox cursor after numbering what committed (as the worker's poll does); null: none. */
async function cursorOf(tenantId: string) {
  const { rows } = await sql<{ fanned_through: string; numbered_through: string }>`
    SELECT fanned_through, numbered_through FROM webhook_cursors WHERE tenant_id = ${tenantId}`.execute(
    portal.tdb.db,
  );
  return rows[0]
    ? { fanned: Number(rows[0].fanned_through), numbered: Number(rows[0].numbered_through) }
    : null;
}
const number = () => sql`SELECT assign_event_sequences()`.execute(portal.tdb.db);

const createLead = (headers: Record<string, string>, n = 0) =>
  portal
    .post('/api/v1/leads', sampleBody(resource('lead'), n, new Map()), headers)
    .then(portal.json);

describe('the webhook outbox, from the portal', () => {
  it('a write enqueues no job: its event, once numbered, is behind the cursor its tenant’s first subscription opened', async () => {
    const world = await webhookWorld(portal);
    expect((await createLead(world.admin, 0)).status).toBe(201);
    await number();
    expect(await cursorOf(world.tenant.id)).toBeNull(); // no subscription: nothing to follow
    await subscribe(portal, world.admin, { events: ['lead.created'] });
    await subscribe(portal, world.admin, { events: ['lead.created', 'quote.created'] });
    // Opened at the tenant's last number: the lead recorded before it is not its to deliver.
    expect(await cursorOf(world.tenant.id)).toEqual({ fanned: 1, numbered: 1 });
    const before = await queuedJobs(portal.tdb.db);
    const lead = await createLead(world.admin, 1);
    expect(lead.status).toBe(201);
    expect(await queuedJobs(portal.tdb.db)).toEqual(before);
    await number();
    expect(await cursorOf(world.tenant.id)).toEqual({ fanned: 1, numbered: 2 });
    const events = await eventsOf(portal.tdb.db, world.tenant.id);
    expect(events.map((e) => [e.type, e.resource_id, Number(e.sequence)])).toEqual([
      ['lead.created', expect.any(String), 1],
      ['lead.created', lead.body.id, 2],
    ]);
  });

  it('API-key writes and status changes are events of the outbox too, in commit order', async () => {
    const world = await webhookWorld(portal);
    await subscribe(portal, world.admin, {
      events: ['sales_order.created', 'sales_order.status_changed'],
    });
    const refs = await populate(
      portal,
      ['product', 'warehouse', 'customer'].map(resource),
      world.admin,
      1,
    );
    await number();
    const start = (await cursorOf(world.tenant.id))!;
    const order = await portal
      .post('/api/v1/sales-orders', sampleBody(resource('sales_order'), 0, refs), world.hooksKey)
      .then(portal.json);
    expect(order.status).toBe(201);
    const confirmed = await portal
      .post(`/api/v1/sales-orders/${order.body.id}/confirm`, {}, world.hooksKey)
      .then(portal.json);
    expect(confirmed.status).toBe(200);
    await number();
    expect(await cursorOf(world.tenant.id)).toEqual({
      fanned: start.fanned,
      numbered: start.numbered + 2,
    });
    const behind = (await eventsOf(portal.tdb.db, world.tenant.id))
      .filter((e) => Number(e.sequence) > start.numbered)
      .sort((a, b) => Number(a.sequence) - Number(b.sequence));
    expect(behind.map((e) => e.type)).toEqual([
      'sales_order.created',
      'sales_order.status_changed',
    ]);
  });

  it('a write that fails leaves no event: the cursor does not move', async () => {
    const world = await webhookWorld(portal);
    await subscribe(portal, world.admin, { events: ['sales_order.created'] });
    const refs = await populate(
      portal,
      ['product', 'warehouse', 'customer'].map(resource),
      world.admin,
      1,
    );
    await number();
    const start = await cursorOf(world.tenant.id);
    const body = {
      ...sampleBody(resource('sales_order'), 0, refs),
      customer_id: randomUUID(), // no such customer in this tenant
    };
    const res = await portal.post('/api/v1/sales-orders', body, world.admin).then(portal.json);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('requete_invalide');
    const events = await eventsOf(portal.tdb.db, world.tenant.id);
    expect(events.filter((e) => e.resource === 'sales_order')).toEqual([]);
    await number();
    expect(await cursorOf(world.tenant.id)).toEqual(start);
  });

  it('another tenant’s subscriptions open no cursor for this one; deleting the last one closes it', async () => {
    const world = await webhookWorld(portal);
    const other = await webhookWorld(portal);
    const sub = await subscribe(portal, other.admin, { events: ['lead.created'] });
    expect((await createLead(world.admin)).status).toBe(201);
    expect(await cursorOf(world.tenant.id)).toBeNull();
    expect(await cursorOf(other.tenant.id)).not.toBeNull();
    const deleted = await portal.request(`${HOOKS}/${sub.id}`, {
      method: 'DELETE',
      headers: other.admin,
    });
    expect(deleted.status).toBe(204);
    expect(await cursorOf(other.tenant.id)).toBeNull();
  });
});
