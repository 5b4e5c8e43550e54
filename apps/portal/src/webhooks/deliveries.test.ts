import { randomUUID } from 'node:crypto';
import { jobs } from '@erp/contract';
import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal } from '../../test/harness';
import {
  eventsOf,
  fakeResolveHost,
  HOOKS,
  queuedJobs,
  seedDelivery,
  subscribe,
  webhookWorld,
} from '../../test/webhooks-harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let world: Awaited<ReturnType<typeof webhookWorld>>;
beforeAll(async () => {
  portal = await createTestPortal({}, undefined, { resolveHost: fakeResolveHost });
  world = await webhookWorld(portal);
});
afterAll(() => portal.tdb.close());

type Headers = Record<string, string>;
const get = (path: string, headers: Headers = world.admin) =>
  portal.request(path, { headers }).then(portal.json);
const post = (path: string, body?: unknown, headers: Headers = world.admin) =>
  portal
    .request(path, {
      method: 'POST',
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    .then(portal.json);
const deliverJobs = async (deliveryId: string) =>
  (await queuedJobs(portal.tdb.db, jobs.webhookDeliver.name)).filter(
    (j) => j.key === `webhook_delivery:${deliveryId}`,
  );
const deliveryRow = (id: string) =>
  portal.tdb.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms);

describe('test deliveries', () => {
  it('records a webhook.test event and queues its first, manual attempt', async () => {
    const sub = await subscribe(portal, world.admin, { events: ['quote.created'] });
    const res = await post(`${HOOKS}/${sub.id}/test`, undefined, world.hooksKey);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      subscription_id: sub.id,
      event_type: 'webhook.test',
      status: 'pending',
      attempts: 0,
      last_response_status: null,
      last_error: null,
      delivered_at: null,
    });
    expect(Math.abs(Date.parse(res.body.next_attempt_at) - Date.now())).toBeLessThan(5000);
    const event = (await eventsOf(portal.tdb.db, world.tenant.id)).find(
      (e) => e.id === res.body.event_id,
    );
    expect(event).toMatchObject({
      type: 'webhook.test',
      resource: 'webhook_subscription',
      resource_id: sub.id,
      data: { object: { subscription_id: sub.id, url: sub.url }, message: 'A test delivery.' },
    });
    expect(await deliverJobs(res.body.id)).toEqual([
      expect.objectContaining({
        task_identifier: jobs.webhookDeliver.name,
        payload: { delivery_id: res.body.id, attempt: 1, manual: true },
      }),
    ]);
    // A test event is delivered to this subscription only: it is never numbered, so never
    // reaches the outbox's cursors (they follow the sequence), and has this one delivery.
    await sql`SELECT assign_event_sequences()`.execute(portal.tdb.db);
    const numbered = (await eventsOf(portal.tdb.db, world.tenant.id)).find(
      (e) => e.id === res.body.event_id,
    );
    expect(numbered?.sequence).toBeNull();
    const { rows: forEvent } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = ${res.body.event_id}`.execute(
      portal.tdb.db,
    );
    expect(forEvent[0]!.n).toBe(1);
    expect((await get(`${HOOKS}/${sub.id}/deliveries/${res.body.id}`)).body).toMatchObject({
      ...res.body,
      attempt_log: [],
    });
  });

  it('refuses a disabled subscription (409) and unknown ones (404)', async () => {
    const sub = await subscribe(portal, world.admin, { enabled: false });
    const disabled = await post(`${HOOKS}/${sub.id}/test`);
    expect(disabled.status).toBe(409);
    expect(disabled.body).toMatchObject({
      code: 'conflit',
      params: { reason: 'subscription_disabled' },
    });
    expect((await post(`${HOOKS}/${randomUUID()}/test`)).status).toBe(404);
    const rows = await portal.tdb.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('subscription_id', '=', sub.id)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('retrying a delivery', () => {
  it('queues the next attempt of the same delivery, now, whatever its status', async () => {
    const sub = await subscribe(portal, world.admin);
    for (const status of ['failed', 'delivered', 'pending'] as const) {
      const id = await seedDelivery(portal.tdb.db, world.tenant.id, sub.id, {
        status,
        attempts: 3,
      });
      const res = await post(
        `${HOOKS}/${sub.id}/deliveries/${id}/retry`,
        undefined,
        world.hooksKey,
      );
      expect(res.status, status).toBe(202);
      expect(res.body).toMatchObject({ id, status: 'pending', attempts: 3 });
      expect(Math.abs(Date.parse(res.body.next_attempt_at) - Date.now())).toBeLessThan(5000);
      expect(await deliverJobs(id)).toEqual([
        expect.objectContaining({ payload: { delivery_id: id, attempt: 4, manual: true } }),
      ]);
    }
  });

  it('replaces the pending job rather than adding one', async () => {
    const sub = await subscribe(portal, world.admin);
    const id = await seedDelivery(portal.tdb.db, world.tenant.id, sub.id, {
      status: 'failed',
      attempts: 20,
    });
    await post(`${HOOKS}/${sub.id}/deliveries/${id}/retry`);
    await portal.tdb.db
      .updateTable('webhook_deliveries')
      .set({ attempts: 21, status: 'failed' })
      .where('id', '=', id)
      .execute();
    const again = await post(`${HOOKS}/${sub.id}/deliveries/${id}/retry`);
    expect(again.body).toMatchObject({ id, attempts: 21, status: 'pending' });
    expect(await deliverJobs(id)).toEqual([
      expect.objectContaining({ payload: { delivery_id: id, attempt: 22, manual: true } }),
    ]);
  });

  it('is 404 for unknown deliveries, another subscription’s, and another tenant’s', async () => {
    const sub = await subscribe(portal, world.admin);
    const sibling = await subscribe(portal, world.admin);
    const id = await seedDelivery(portal.tdb.db, world.tenant.id, sibling.id, {
      status: 'failed',
      attempts: 1,
    });
    const other = await webhookWorld(portal);
    for (const [path, headers] of [
      [`${HOOKS}/${sub.id}/deliveries/${randomUUID()}/retry`, world.admin],
      [`${HOOKS}/${sub.id}/deliveries/${id}/retry`, world.admin],
      [`${HOOKS}/${sibling.id}/deliveries/${id}/retry`, other.admin],
    ] as const) {
      const res = await post(path, undefined, headers);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('introuvable');
    }
    expect(await deliverJobs(id)).toEqual([]);
    expect((await deliveryRow(id)).status).toBe('failed');
  });

  it('refuses a disabled subscription, changing nothing', async () => {
    const sub = await subscribe(portal, world.admin);
    const id = await seedDelivery(portal.tdb.db, world.tenant.id, sub.id, {
      status: 'failed',
      attempts: 2,
    });
    await portal.tdb.db
      .updateTable('webhook_subscriptions')
      .set({ enabled: false, disabled_reason: 'gone' })
      .where('id', '=', sub.id)
      .execute();
    const res = await post(`${HOOKS}/${sub.id}/deliveries/${id}/retry`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflit');
    expect(await deliverJobs(id)).toEqual([]);
    expect((await deliveryRow(id)).status).toBe('failed');
  });
});

describe('recovering failed deliveries', () => {
  it('queues every failed delivery created since the time, in one go', async () => {
    const sub = await subscribe(portal, world.admin);
    const seed = (status: 'pending' | 'delivered' | 'failed', attempts: number, age: number) =>
      seedDelivery(portal.tdb.db, world.tenant.id, sub.id, {
        status,
        attempts,
        createdAt: ago(age),
      });
    const recent = await seed('failed', 20, HOUR);
    const older = await seed('failed', 7, 47 * HOUR);
    const tooOld = await seed('failed', 20, 5 * 24 * HOUR);
    const delivered = await seed('delivered', 1, HOUR);
    const pending = await seed('pending', 2, HOUR);
    const sibling = await subscribe(portal, world.admin);
    const elsewhere = await seedDelivery(portal.tdb.db, world.tenant.id, sibling.id, {
      status: 'failed',
      attempts: 20,
    });

    const res = await post(
      `${HOOKS}/${sub.id}/recover`,
      { since: ago(48 * HOUR).toISOString() },
      world.hooksKey,
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ recovered: 2 });
    expect((await deliverJobs(recent))[0]?.payload).toEqual({
      delivery_id: recent,
      attempt: 21,
      manual: true,
    });
    expect((await deliverJobs(older))[0]?.payload).toEqual({
      delivery_id: older,
      attempt: 8,
      manual: true,
    });
    for (const id of [tooOld, delivered, pending, elsewhere])
      expect(await deliverJobs(id)).toEqual([]);
    expect((await deliveryRow(recent)).status).toBe('pending');
    expect((await deliveryRow(tooOld)).status).toBe('failed');
    expect((await deliveryRow(delivered)).status).toBe('delivered');
    // Nothing failed any more in that window: a second call recovers nothing.
    expect(
      (await post(`${HOOKS}/${sub.id}/recover`, { since: ago(HOUR * 48).toISOString() })).body,
    ).toEqual({ recovered: 0 });
  });

  it('takes a time within the last 30 days', async () => {
    const sub = await subscribe(portal, world.admin);
    for (const body of [
      { since: new Date(Date.now() + 60_000).toISOString() },
      { since: ago(31 * 24 * HOUR).toISOString() },
      { since: 'yesterday' },
      { since: 1_700_000_000 },
      {},
    ]) {
      const res = await post(`${HOOKS}/${sub.id}/recover`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
      expect(res.body.params.issues[0].path).toBe('since');
    }
    expect((await post(`${HOOKS}/${sub.id}/recover`)).status).toBe(400);
    expect(
      (await post(`${HOOKS}/${sub.id}/recover`, { since: ago(29 * 24 * HOUR).toISOString() }))
        .status,
    ).toBe(202);
  });

  it('a subscription the platform disabled shows why and since when; re-enabling restarts the count and recovers since failing_since, even beyond 30 days', async () => {
    const sub = await subscribe(portal, world.admin);
    const failingSince = ago(40 * 24 * HOUR);
    const disabledAt = ago(HOUR);
    await portal.tdb.db
      .updateTable('webhook_subscriptions')
      .set({
        enabled: false,
        disabled_reason: 'failing',
        disabled_at: disabledAt,
        failing_since: failingSince,
        consecutive_failures: 3,
      })
      .where('id', '=', sub.id)
      .execute();
    const missed = await seedDelivery(portal.tdb.db, world.tenant.id, sub.id, {
      status: 'failed',
      attempts: 20,
      createdAt: ago(35 * 24 * HOUR),
    });
    const before = await seedDelivery(portal.tdb.db, world.tenant.id, sub.id, {
      status: 'failed',
      attempts: 20,
      createdAt: ago(41 * 24 * HOUR),
    });
    // Made before the endpoint began failing, it failed after: a recover must find it.
    const straddling = await seedDelivery(portal.tdb.db, world.tenant.id, sub.id, {
      status: 'failed',
      attempts: 1,
      createdAt: ago(40 * 24 * HOUR + 1000),
    });
    // Its first attempt in its row, where the worker keeps it (migration 0049).
    await portal.tdb.db
      .updateTable('webhook_deliveries')
      .set({
        first_manual: false,
        first_started_at: failingSince,
        first_duration_ms: 3,
        first_response_status: 500,
      })
      .where('id', '=', straddling)
      .execute();
    const shown = await get(`${HOOKS}/${sub.id}`);
    expect(shown.body).toMatchObject({
      enabled: false,
      disabled_reason: 'failing',
      disabled_at: disabledAt.toISOString(),
      failing_since: failingSince.toISOString(),
      consecutive_failures: 3,
    });
    // Disabled: no recover until it is enabled again.
    const since = failingSince.toISOString();
    expect((await post(`${HOOKS}/${sub.id}/recover`, { since })).status).toBe(409);

    const enabled = await portal
      .request(`${HOOKS}/${sub.id}`, {
        method: 'PATCH',
        headers: { ...world.admin, 'content-type': 'application/json' },
        body: JSON.stringify({ enabled: true }),
      })
      .then(portal.json);
    expect(enabled.body).toMatchObject({
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      failing_since: since,
      consecutive_failures: 0,
    });
    const recovered = await post(`${HOOKS}/${sub.id}/recover`, { since });
    expect(recovered.body).toEqual({ recovered: 2 });
    expect((await deliveryRow(missed)).status).toBe('pending');
    expect((await deliveryRow(straddling)).status).toBe('pending');
    expect((await deliveryRow(before)).status).toBe('failed');
    // Before failing_since's minute and beyond 30 days: refused as before.
    const earlier = new Date(failingSince.getTime() - 61_000).toISOString();
    expect((await post(`${HOOKS}/${sub.id}/recover`, { since: earlier })).status).toBe(400);
  });

  it('is 404 for an unknown subscription, 409 for a disabled one', async () => {
    const since = ago(HOUR).toISOString();
    expect((await post(`${HOOKS}/${randomUUID()}/recover`, { since })).status).toBe(404);
    const sub = await subscribe(portal, world.admin, { enabled: false });
    expect((await post(`${HOOKS}/${sub.id}/recover`, { since })).status).toBe(409);
  });
});

describe('the delivery log', () => {
  let sub: { id: string };
  const ids: string[] = [];
  beforeAll(async () => {
    sub = await subscribe(portal, world.admin, { events: ['lead.created', 'quote.created'] });
    const plan = [
      ['failed', 'lead.created'],
      ['delivered', 'quote.created'],
      ['delivered', 'lead.created'],
      ['pending', 'lead.created'],
      ['failed', 'quote.created'],
    ] as const;
    for (const [status, type] of plan) {
      ids.push(
        await seedDelivery(portal.tdb.db, world.tenant.id, sub.id, { status, attempts: 1, type }),
      );
    }
    await portal.tdb.db
      .insertInto('webhook_delivery_attempts')
      .values([
        {
          tenant_id: world.tenant.id,
          delivery_id: ids[0]!,
          attempt: 2,
          manual: true,
          started_at: ago(HOUR),
          duration_ms: 15000,
          response_status: null,
          response_excerpt: null,
          error: 'timeout after 15 s',
        },
      ])
      .execute();
    // The first attempt in the delivery's row, where the worker keeps it (migration 0049).
    await portal.tdb.db
      .updateTable('webhook_deliveries')
      .set({
        first_manual: false,
        first_started_at: ago(2 * HOUR),
        first_duration_ms: 87,
        first_response_status: 500,
        first_response_excerpt: '{"error":"boom"}',
        first_error: null,
      })
      .where('id', '=', ids[0]!)
      .execute();
  });
  const log = (query = '', headers: Headers = world.admin) =>
    get(`${HOOKS}/${sub.id}/deliveries${query}`, headers);

  it('lists newest first, filtered by status and event', async () => {
    const all = await log('', world.hooksKey);
    expect(all.status).toBe(200);
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([...ids].reverse());
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.data[0]).toEqual({
      id: ids[4],
      subscription_id: sub.id,
      event_id: expect.any(String),
      event_type: 'quote.created',
      status: 'failed',
      attempts: 1,
      next_attempt_at: null,
      last_response_status: 500,
      last_error: null,
      delivered_at: null,
      created_at: expect.any(String),
    });
    const failed = await log('?status=failed');
    expect(failed.body.data.map((d: { id: string }) => d.id)).toEqual([ids[4], ids[0]]);
    const leads = await log('?event=lead.created&status=delivered');
    expect(leads.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2]]);
    expect((await log('?event=webhook.test')).body.data).toEqual([]);
  });

  it('pages with an opaque keyset cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await log(`?page_size=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((d: { id: string }) => d.id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
    const firstFailed = await log('?status=failed&page_size=1');
    const secondFailed = await log(
      `?status=failed&page_size=1&cursor=${firstFailed.body.next_cursor}`,
    );
    expect(secondFailed.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    expect(secondFailed.body.next_cursor).toBeNull();
  });

  it('refuses bad queries with requete_invalide, never 500', async () => {
    const forged = Buffer.from('before:not-a-uuid').toString('base64url');
    for (const query of [
      '?page_size=0',
      '?page_size=201',
      '?page_size=abc',
      '?status=lost',
      '?event=lead.deleted',
      '?cursor=%%%',
      '?cursor=abc',
      `?cursor=${forged}`,
      `?cursor=${'a'.repeat(300)}`,
    ]) {
      const res = await log(query);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
    }
  });

  it('shows one delivery with every attempt, oldest first', async () => {
    const res = await get(`${HOOKS}/${sub.id}/deliveries/${ids[0]}`, world.hooksKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ids[0], status: 'failed', event_type: 'lead.created' });
    expect(res.body.attempt_log).toEqual([
      {
        attempt: 1,
        manual: false,
        started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
        duration_ms: 87,
        response_status: 500,
        response_excerpt: '{"error":"boom"}',
        error: null,
      },
      expect.objectContaining({
        attempt: 2,
        manual: true,
        duration_ms: 15000,
        response_status: null,
        error: 'timeout after 15 s',
      }),
    ]);
    expect(Date.parse(res.body.attempt_log[0].started_at)).toBeLessThan(
      Date.parse(res.body.attempt_log[1].started_at),
    );
  });

  it('shows a delivery recorded before migration 0049, its first attempt in the log', async () => {
    await portal.tdb.db
      .insertInto('webhook_delivery_attempts')
      .values({
        tenant_id: world.tenant.id,
        delivery_id: ids[4]!,
        attempt: 1,
        started_at: ago(HOUR),
        duration_ms: 5,
        response_status: 500,
      })
      .execute();
    const res = await get(`${HOOKS}/${sub.id}/deliveries/${ids[4]}`, world.hooksKey);
    expect(res.status).toBe(200);
    expect(res.body.attempt_log).toEqual([
      expect.objectContaining({ attempt: 1, manual: false, duration_ms: 5, response_status: 500 }),
    ]);
  });

  it('is 404 for unknown subscriptions and deliveries, and another tenant’s', async () => {
    const other = await webhookWorld(portal);
    for (const [path, headers] of [
      [`${HOOKS}/${randomUUID()}/deliveries`, world.admin],
      [`${HOOKS}/${sub.id}/deliveries`, other.admin],
      [`${HOOKS}/${sub.id}/deliveries/${randomUUID()}`, world.admin],
      [`${HOOKS}/${sub.id}/deliveries/${ids[0]}`, other.admin],
    ] as const) {
      const res = await get(path, headers);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('introuvable');
    }
  });

  it('goes with its subscription', async () => {
    const doomed = await subscribe(portal, world.admin);
    const id = await seedDelivery(portal.tdb.db, world.tenant.id, doomed.id, {
      status: 'failed',
      attempts: 1,
    });
    const res = await portal.request(`${HOOKS}/${doomed.id}`, {
      method: 'DELETE',
      headers: world.admin,
    });
    expect(res.status).toBe(204);
    const left = await portal.tdb.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('id', '=', id)
      .execute();
    expect(left).toEqual([]);
  });
});
