import { randomUUID } from 'node:crypto';
import { BUSINESS_EVENT_NAMES, WEBHOOK_VERSION } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, session } from '../../test/harness';
import { fakeResolveHost, HOOKS, subscribe, webhookWorld } from '../../test/webhooks-harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let world: Awaited<ReturnType<typeof webhookWorld>>;
beforeAll(async () => {
  portal = await createTestPortal({}, undefined, { resolveHost: fakeResolveHost });
  world = await webhookWorld(portal);
});
afterAll(() => portal.tdb.close());

type Headers = Record<string, string>;
const get = (path: string, headers: Headers) => portal.request(path, { headers }).then(portal.json);
const send = (method: string, path: string, headers: Headers, body?: unknown) =>
  portal
    .request(path, {
      method,
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    .then(portal.json);
const storedRow = (id: string) =>
  portal.tdb.db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('the event catalogue', () => {
  it('lists exactly the 27 events of SPEC §7, at both paths', async () => {
    for (const path of [`${HOOKS}/events`, '/settings/webhooks/events']) {
      const res = await get(path, world.admin);
      expect(res.status, path).toBe(200);
      const names = res.body.data.map((e: { name: string }) => e.name);
      expect(names).toHaveLength(27);
      expect(new Set(names)).toEqual(new Set(BUSINESS_EVENT_NAMES));
      expect(
        res.body.data.find((e: { name: string }) => e.name === 'purchase_order.approved'),
      ).toMatchObject({ resource: 'purchase_order', action: 'approved' });
      for (const event of res.body.data) expect(event.description).toBeTruthy();
    }
  });

  it('needs the right webhooks', async () => {
    expect((await get(`${HOOKS}/events`, world.editor)).status).toBe(403);
    expect((await get('/settings/webhooks/events', world.salesKey)).status).toBe(403);
    expect((await get('/settings/webhooks/events', world.hooksKey)).status).toBe(200);
  });
});

describe('creating a subscription', () => {
  it('returns the secret once, pinned to the current version; lists and gets never show it', async () => {
    const res = await portal
      .post(
        HOOKS,
        {
          url: 'https://public.example/hooks',
          events: ['sales_order.created', 'sales_order.status_changed'],
          description: '  ERP sync  ',
        },
        world.admin,
      )
      .then(portal.json);
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);
    expect(res.body).toMatchObject({
      url: 'https://public.example/hooks',
      events: ['sales_order.created', 'sales_order.status_changed'],
      description: 'ERP sync',
      enabled: true,
      disabled_reason: null,
      webhook_version: WEBHOOK_VERSION,
      previous_secret_expires_at: null,
    });
    const listed = await get(HOOKS, world.admin);
    const fetched = await get(`${HOOKS}/${res.body.id}`, world.hooksKey);
    expect(fetched.status).toBe(200);
    const { secret, ...shown } = res.body;
    expect(fetched.body).toEqual(shown);
    expect(listed.body.data.find((s: { id: string }) => s.id === res.body.id)).toEqual(shown);
    for (const body of [listed.body, fetched.body]) {
      expect(JSON.stringify(body)).not.toContain(secret.slice(6));
      expect(Object.keys(body)).not.toContain('secret');
    }
  });

  it('keeps only sealed bytes, bound to the subscription', async () => {
    const created = await subscribe(portal, world.admin);
    const row = await storedRow(created.id);
    expect(row.secret_sealed.includes(Buffer.from(created.secret))).toBe(false);
    expect(row.secret_sealed.includes(Buffer.from(created.secret.slice(6), 'base64'))).toBe(false);
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));
    expect(portal.deps.secretBox.open(row.secret_sealed, created.id)).toBe(created.secret);
    expect(() => portal.deps.secretBox.open(row.secret_sealed, randomUUID())).toThrow();
  });

  it('lists newest first, and only the tenant’s own', async () => {
    const first = await subscribe(portal, world.admin);
    const second = await subscribe(portal, world.hooksKey, { enabled: false });
    const other = await webhookWorld(portal);
    const foreign = await subscribe(portal, other.admin);
    const ids = (await get(HOOKS, world.admin)).body.data.map((s: { id: string }) => s.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(ids).not.toContain(foreign.id);
    expect((await get(HOOKS, other.admin)).body.data.map((s: { id: string }) => s.id)).toEqual([
      foreign.id,
    ]);
  });

  it('refuses bad input with requete_invalide and the issue', async () => {
    const cases: [unknown, string][] = [
      [{ events: ['lead.created'] }, 'url'],
      [{ url: 'not a url', events: ['lead.created'] }, 'url'],
      [{ url: 'ftp://public.example/x', events: ['lead.created'] }, 'url'],
      [{ url: 'https://user:pw@public.example/x', events: ['lead.created'] }, 'url'],
      [{ url: `https://public.example/${'a'.repeat(2048)}`, events: ['lead.created'] }, 'url'],
      [{ url: 'https://public.example/a b', events: ['lead.created'] }, 'url'],
      [{ url: 'https://public.example/\u0000', events: ['lead.created'] }, 'url'],
      [
        { url: 'https://public.example/x', events: ['lead.created'], description: 'a\u0000b' },
        'description',
      ],
      [{ url: 'https://public.example/x' }, 'events'],
      [{ url: 'https://public.example/x', events: [] }, 'events'],
      [{ url: 'https://public.example/x', events: ['lead.created', 'lead.created'] }, 'events'],
      [{ url: 'https://public.example/x', events: 'lead.created' }, 'events'],
      [{ url: 'https://public.example/x', events: ['lead.created'], enabled: 'yes' }, 'enabled'],
      [
        { url: 'https://public.example/x', events: ['lead.created'], description: 'x'.repeat(501) },
        'description',
      ],
    ];
    for (const [body, path] of cases) {
      const res = await portal.post(HOOKS, body, world.admin).then(portal.json);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
      expect(res.body.params.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
  });

  it('names the unknown events', async () => {
    const res = await portal
      .post(
        HOOKS,
        {
          url: 'https://public.example/x',
          events: ['lead.created', 'lead.deleted', 'webhook.test'],
        },
        world.admin,
      )
      .then(portal.json);
    expect(res.status).toBe(400);
    expect(res.body.params.issues).toEqual([
      expect.objectContaining({ path: 'events.1', message: 'unknown event "lead.deleted"' }),
      expect.objectContaining({ path: 'events.2', message: 'unknown event "webhook.test"' }),
    ]);
  });

  it('refuses malformed JSON and a body of the wrong type', async () => {
    const raw = await portal
      .request(HOOKS, {
        method: 'POST',
        headers: { ...world.admin, 'content-type': 'application/json' },
        body: '{"url":',
      })
      .then(portal.json);
    expect(raw.status).toBe(400);
    expect(raw.body.code).toBe('requete_invalide');
    expect((await send('POST', HOOKS, world.admin, [1, 2])).status).toBe(400);
  });
});

describe('changing and deleting a subscription', () => {
  it('changes url, events, description and state; enabling clears disabled_reason', async () => {
    const created = await subscribe(portal, world.admin);
    await portal.tdb.db
      .updateTable('webhook_subscriptions')
      .set({ enabled: false, disabled_reason: 'gone' })
      .where('id', '=', created.id)
      .execute();
    expect((await get(`${HOOKS}/${created.id}`, world.admin)).body).toMatchObject({
      enabled: false,
      disabled_reason: 'gone',
    });
    const res = await send('PATCH', `${HOOKS}/${created.id}`, world.hooksKey, {
      url: 'https://public.example/v2',
      events: ['quote.created'],
      description: 'v2',
      enabled: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.id,
      url: 'https://public.example/v2',
      events: ['quote.created'],
      description: 'v2',
      enabled: true,
      disabled_reason: null,
    });
    expect(res.body.secret).toBeUndefined();
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(res.body.created_at));
    const partial = await send('PATCH', `${HOOKS}/${created.id}`, world.admin, { enabled: false });
    expect(partial.body).toMatchObject({ url: 'https://public.example/v2', enabled: false });
  });

  it('refuses an empty or invalid patch, and leaves the subscription as it was', async () => {
    const created = await subscribe(portal, world.admin);
    for (const body of [
      {},
      { events: [] },
      { url: 'http://' },
      { events: ['nope'] },
      { enabled: null },
    ]) {
      const res = await send('PATCH', `${HOOKS}/${created.id}`, world.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
    }
    expect((await get(`${HOOKS}/${created.id}`, world.admin)).body).toMatchObject({
      url: created.url,
      events: created.events,
    });
  });

  it('deletes: 204, then 404', async () => {
    const created = await subscribe(portal, world.admin);
    const res = await send('DELETE', `${HOOKS}/${created.id}`, world.hooksKey);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { enabled: true }],
      ['DELETE', undefined],
    ] as const) {
      const again = await send(method, `${HOOKS}/${created.id}`, world.admin, body);
      expect(again.status, method).toBe(404);
      expect(again.body.code).toBe('introuvable');
    }
  });
});

describe('rotating the secret', () => {
  const rotate = (id: string, body?: unknown, headers = world.admin) =>
    send('POST', `${HOOKS}/${id}/rotate-secret`, headers, body);

  it('issues a new secret; the old one signs for 24 hours by default', async () => {
    const created = await subscribe(portal, world.admin);
    const before = Date.now();
    const res = await rotate(created.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(created.secret);
    const expires = Date.parse(res.body.previous_secret_expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3600_000 + 1000);
    const row = await storedRow(created.id);
    expect(portal.deps.secretBox.open(row.secret_sealed, created.id)).toBe(res.body.secret);
    expect(portal.deps.secretBox.open(row.previous_secret_sealed!, created.id)).toBe(
      created.secret,
    );
    const fetched = await get(`${HOOKS}/${created.id}`, world.admin);
    expect(fetched.body.previous_secret_expires_at).toBe(res.body.previous_secret_expires_at);
    expect(JSON.stringify(fetched.body)).not.toContain(res.body.secret.slice(6));
  });

  it('keeps the two newest secrets when rotating during an overlap', async () => {
    const created = await subscribe(portal, world.admin);
    const second = (await rotate(created.id, { expire_previous_in_hours: 2 })).body.secret;
    const third = (await rotate(created.id, { expire_previous_in_hours: 1 })).body.secret;
    const row = await storedRow(created.id);
    expect(portal.deps.secretBox.open(row.secret_sealed, created.id)).toBe(third);
    expect(portal.deps.secretBox.open(row.previous_secret_sealed!, created.id)).toBe(second);
  });

  it('drops the old secret now with 0', async () => {
    const created = await subscribe(portal, world.admin);
    const res = await rotate(created.id, { expire_previous_in_hours: 0 });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.previous_secret_expires_at)).toBeLessThanOrEqual(Date.now());
    const row = await storedRow(created.id);
    expect(row.previous_secret_sealed).toBeNull();
    expect(portal.deps.secretBox.open(row.secret_sealed, created.id)).toBe(res.body.secret);
  });

  it('takes 0 to 24 whole hours', async () => {
    const created = await subscribe(portal, world.admin);
    for (const hours of [25, -1, 1.5, '2', null]) {
      const res = await rotate(created.id, { expire_previous_in_hours: hours });
      expect(res.status, String(hours)).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
      expect(res.body.params.issues[0].path).toBe('expire_previous_in_hours');
    }
    expect((await rotate(created.id, { expire_previous_in_hours: 24 })).status).toBe(200);
    // The secret did not change on refused requests: only the accepted rotation shows.
    const row = await storedRow(created.id);
    expect(portal.deps.secretBox.open(row.previous_secret_sealed!, created.id)).toBe(
      created.secret,
    );
  });

  it('is 404 for unknown ids', async () => {
    const res = await rotate(randomUUID());
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('introuvable');
  });
});

describe('every webhook route', () => {
  const id = '0190f2a0-0000-7000-8000-000000000001';
  const did = '0190f2a0-0000-7000-8000-000000000002';
  const all: [string, string, unknown?][] = [
    ['GET', `${HOOKS}/events`],
    ['GET', '/settings/webhooks/events'],
    ['GET', HOOKS],
    ['POST', HOOKS, { url: 'https://public.example/x', events: ['lead.created'] }],
    ['GET', `${HOOKS}/${id}`],
    ['PATCH', `${HOOKS}/${id}`, { enabled: true }],
    ['DELETE', `${HOOKS}/${id}`],
    ['POST', `${HOOKS}/${id}/rotate-secret`, {}],
    ['POST', `${HOOKS}/${id}/test`],
    ['GET', `${HOOKS}/${id}/deliveries`],
    ['GET', `${HOOKS}/${id}/deliveries/${did}`],
    ['POST', `${HOOKS}/${id}/deliveries/${did}/retry`],
    ['POST', `${HOOKS}/${id}/recover`, { since: new Date().toISOString() }],
  ];

  it('needs credentials (401 non_authentifie)', async () => {
    for (const [method, path, body] of all) {
      const res = await send(method, path, {}, body);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe('non_authentifie');
    }
  });

  it('refuses users and keys without the right webhooks, before reading the body', async () => {
    for (const headers of [world.editor, world.salesKey]) {
      for (const [method, path, body] of all) {
        const res = await send(method, path, headers, body === undefined ? undefined : { junk: 1 });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body).toMatchObject({ code: 'acces_refuse', params: { required: 'webhooks' } });
      }
    }
  });

  it('needs a tenant', async () => {
    const token = (await portal.login(world.tenant.adminEmail)).access_token;
    const res = await get(HOOKS, session(token));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('tenant_requis');
  });

  it('answers 404 for another tenant’s subscription, on every route that names one', async () => {
    const other = await webhookWorld(portal);
    const foreign = await subscribe(portal, other.admin);
    for (const [method, path, body] of all.filter(([, p]) => p.includes(id))) {
      const res = await send(method, path.replace(id, foreign.id), world.admin, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe('introuvable');
    }
    expect((await get(`${HOOKS}/${foreign.id}`, other.admin)).status).toBe(200);
  });

  it('answers 400 for malformed ids, never 500', async () => {
    for (const [method, path, body] of all.filter(([, p]) => p.includes(id))) {
      for (const bad of ['nope', '123', `${id}x`, "1' OR '1'='1"]) {
        const res = await send(
          method,
          path.replace(id, encodeURIComponent(bad)),
          world.admin,
          body,
        );
        expect(res.status, `${method} ${path} ${bad}`).toBe(400);
        expect(res.body.code).toBe('requete_invalide');
      }
    }
    for (const path of all.map(([, p]) => p).filter((p) => p.includes(did))) {
      const method = path.endsWith('retry') ? 'POST' : 'GET';
      const res = await send(method, path.replace(did, 'not-a-uuid'), world.admin);
      expect(res.status, path).toBe(400);
    }
  });
});

describe('fuzzed bodies', () => {
  it('never yield a 500 on any webhook write route', async () => {
    const created = await subscribe(portal, world.admin);
    const did = '0190f2a0-0000-7000-8000-000000000002';
    const targets: [string, string][] = [
      ['POST', HOOKS],
      ['PATCH', `${HOOKS}/${created.id}`],
      ['POST', `${HOOKS}/${created.id}/rotate-secret`],
      ['POST', `${HOOKS}/${created.id}/recover`],
      ['POST', `${HOOKS}/${created.id}/deliveries/${did}/retry`],
    ];
    const values = [
      null,
      true,
      -1,
      1e308,
      '',
      'x'.repeat(3000),
      '\u202e\ud800\u0000',
      [],
      {},
      ['lead.created', null],
      ['lead.created'],
      'https://public.example/hooks',
      'https://10.0.0.1/',
      'https://[::1',
      'http://public.example:99999/',
      '2026-13-45T99:99:99Z',
      new Date().toISOString(),
      '00000000-0000-0000-0000-000000000000',
    ];
    const keys = [
      'url',
      'events',
      'description',
      'enabled',
      'expire_previous_in_hours',
      'since',
      '__proto__',
      'constructor',
    ];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (const [method, path] of targets) {
      for (let i = 0; i < 30; i++) {
        const body: Record<string, unknown> = {};
        for (let k = 0; k < 1 + rand(4); k++)
          body[keys[rand(keys.length)]!] = values[rand(values.length)];
        const res = await send(method, path, world.admin, body);
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        if (res.status >= 400) expect(typeof res.body.code).toBe('string');
      }
    }
  });
});
