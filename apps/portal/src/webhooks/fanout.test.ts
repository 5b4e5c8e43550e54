import { randomUUID } from 'node:crypto';
import { catalogue } from '@erp/contract';
import { WEBHOOK_FANOUT } from '@erp/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { sampleBody } from '../seed';

/**
 * The fan-out trigger seen from the portal: a business write records its event, and the
 * event enqueues one `webhook_fanout` job in the same transaction when an enabled
 * subscription of the tenant wants it.
 */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
beforeAll(async () => {
  portal = await createTestPortal({}, undefined, { resolveHost: fakeResolveHost });
});
afterAll(() => portal.tdb.close());

const byName = new Map(catalogue.map((r) => [r.name, r]));
const resource = (name: string) => byName.get(name)!;

/** Fan-out jobs naming one of the tenant's events, with the event's type. */
async function fanoutJobsOf(tenantId: string) {
  const events = new Map((await eventsOf(portal.tdb.db, tenantId)).map((e) => [e.id, e.type]));
  return (await queuedJobs(portal.tdb.db, WEBHOOK_FANOUT))
    .filter((j) => events.has(j.payload.event_id as string))
    .map((j) => ({ event_id: j.payload.event_id, type: events.get(j.payload.event_id as string) }));
}

const createLead = (headers: Record<string, string>, n = 0) =>
  portal
    .post('/api/v1/leads', sampleBody(resource('lead'), n, new Map()), headers)
    .then(portal.json);

describe('the webhook fan-out trigger', () => {
  it('enqueues exactly one job per wanted event, naming it (session write)', async () => {
    const world = await webhookWorld(portal);
    await subscribe(portal, world.admin, { events: ['lead.created'] });
    await subscribe(portal, world.admin, { events: ['lead.created', 'quote.created'] });
    const lead = await createLead(world.admin);
    expect(lead.status).toBe(201);
    const events = await eventsOf(portal.tdb.db, world.tenant.id);
    expect(events.map((e) => [e.type, e.resource_id])).toEqual([['lead.created', lead.body.id]]);
    const jobs = await queuedJobs(portal.tdb.db, WEBHOOK_FANOUT);
    expect(jobs.filter((j) => j.payload.event_id === events[0]!.id)).toEqual([
      expect.objectContaining({ payload: { event_id: events[0]!.id } }),
    ]);
  });

  it('enqueues for API-key writes and status changes too', async () => {
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
    const order = await portal
      .post('/api/v1/sales-orders', sampleBody(resource('sales_order'), 0, refs), world.hooksKey)
      .then(portal.json);
    expect(order.status).toBe(201);
    const confirmed = await portal
      .post(`/api/v1/sales-orders/${order.body.id}/confirm`, {}, world.hooksKey)
      .then(portal.json);
    expect(confirmed.status).toBe(200);
    expect((await fanoutJobsOf(world.tenant.id)).map((j) => j.type)).toEqual([
      'sales_order.created',
      'sales_order.status_changed',
    ]);
  });

  it('enqueues nothing for a disabled subscription or an event nobody wants', async () => {
    const world = await webhookWorld(portal);
    await subscribe(portal, world.admin, { events: ['lead.created'], enabled: false });
    await subscribe(portal, world.admin, { events: ['quote.created'] });
    expect((await createLead(world.admin)).status).toBe(201);
    expect((await eventsOf(portal.tdb.db, world.tenant.id)).map((e) => e.type)).toEqual([
      'lead.created',
    ]);
    expect(await fanoutJobsOf(world.tenant.id)).toEqual([]);
  });

  it('stops enqueueing once the subscription is disabled, and resumes when enabled', async () => {
    const world = await webhookWorld(portal);
    const created = await subscribe(portal, world.admin, { events: ['lead.created'] });
    const patch = (enabled: boolean) =>
      portal.request(`${HOOKS}/${created.id}`, {
        method: 'PATCH',
        headers: { ...world.admin, 'content-type': 'application/json' },
        body: JSON.stringify({ enabled }),
      });
    await patch(false);
    await createLead(world.admin, 1);
    await patch(true);
    await createLead(world.admin, 2);
    const events = await eventsOf(portal.tdb.db, world.tenant.id);
    expect(events).toHaveLength(2);
    expect((await fanoutJobsOf(world.tenant.id)).map((j) => j.event_id)).toEqual([events[1]!.id]);
  });

  it('leaves neither event nor job when the write fails', async () => {
    const world = await webhookWorld(portal);
    await subscribe(portal, world.admin, { events: ['sales_order.created'] });
    const refs = await populate(
      portal,
      ['product', 'warehouse', 'customer'].map(resource),
      world.admin,
      1,
    );
    const body = {
      ...sampleBody(resource('sales_order'), 0, refs),
      customer_id: randomUUID(), // no such customer in this tenant
    };
    const res = await portal.post('/api/v1/sales-orders', body, world.admin).then(portal.json);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('requete_invalide');
    const events = await eventsOf(portal.tdb.db, world.tenant.id);
    expect(events.filter((e) => e.resource === 'sales_order')).toEqual([]);
    expect(await fanoutJobsOf(world.tenant.id)).toEqual([]);
  });

  it('ignores another tenant’s subscriptions', async () => {
    const world = await webhookWorld(portal);
    const other = await webhookWorld(portal);
    await subscribe(portal, other.admin, { events: ['lead.created'] });
    expect((await createLead(world.admin)).status).toBe(201);
    expect(await fanoutJobsOf(world.tenant.id)).toEqual([]);
  });
});
