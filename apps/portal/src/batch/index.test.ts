import { randomUUID } from 'node:crypto';
import type { BatchOperation } from '@erp/contract';
import committedOpenApi from '@erp/contract/openapi.json' with { type: 'json' };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchOf, customerBody, footprint, salesOrderBody } from '../../test/batch-harness';
import { createTestPortal, session } from '../../test/harness';
import { fakeResolveHost, subscribe } from '../../test/webhooks-harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let admin: Record<string, string>;
let batch: ReturnType<typeof batchOf>;

beforeAll(async () => {
  portal = await createTestPortal({}, undefined, { resolveHost: fakeResolveHost });
  tenant = await portal.provisionTenant('enterprise');
  admin = session((await portal.login(tenant.adminEmail)).access_token, tenant.slug);
  batch = batchOf(portal);
  // A subscription makes every sales order creation an event the worker's outbox delivers: a
  // batch rolled back must leave none.
  await subscribe(portal, admin, { events: ['sales_order.created', 'sales_order.status_changed'] });
}, 120_000);
afterAll(() => portal.tdb.close());

const post = (path: string, body?: Record<string, unknown>): BatchOperation => ({
  method: 'POST',
  path,
  ...(body ? { body } : {}),
});
const get = (path: string): BatchOperation => ({ method: 'GET', path });

describe('references', () => {
  it('runs the contract’s own example as written: a customer, its order with lines, confirmed, invoiced', async () => {
    const { operations } = (
      committedOpenApi.components.schemas.BatchRequest as unknown as {
        example: { operations: BatchOperation[] };
      }
    ).example;
    const res = await batch(operations, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([201, 201, 200, 201]);
    const [, order, , invoice] = res.body.results;
    expect(invoice.body).toMatchObject({ sales_order_id: order.body.id, status: 'brouillon' });
    expect(invoice.body.lines[0].source_line_id).toBe(order.body.lines[0].id);
  });

  it('creates a customer and a sales order for it in one call, confirms it and reads it back', async () => {
    const before = await footprint(portal, tenant.id);
    const res = await batch(
      [
        post('/api/v1/customers', customerBody('ref')),
        post('/api/v1/sales-orders', salesOrderBody('{{0.id}}')),
        post('/api/v1/sales-orders/{{1.id}}/confirm'),
        get('/api/v1/sales-orders/{{1.id}}'),
        get('/api/v1/sales-orders?customer_id=eq.{{0.id}}'),
      ],
      admin,
    );
    expect(res.status).toBe(200);
    const [customer, order, confirmed, read, list] = res.body.results;
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([
      201, 201, 200, 200, 200,
    ]);
    expect(order.body).toMatchObject({ customer_id: customer.body.id, status: 'brouillon' });
    expect(order.body.number).toMatch(/^SO-\d{4}-\d{5}$/);
    expect(confirmed).toMatchObject({
      etag: '"2"',
      body: { id: order.body.id, status: 'confirme' },
    });
    expect(list.etag).toBeNull();
    // Reads see the writes before them.
    expect(read.body).toMatchObject({ id: order.body.id, status: 'confirme' });
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([order.body.id]);
    expect(await footprint(portal, tenant.id)).toMatchObject({
      customers: before.customers + 1,
      orders: before.orders + 1,
      // customer.created, sales_order.created and .status_changed: every change is an event
      // (the feed's); the subscribed two are for the webhook outbox, and no job is queued.
      events: before.events + 3,
      watched: before.watched + 2,
      jobs: before.jobs,
    });
  });

  it('keeps a whole-string reference’s JSON type and writes an embedded one as text', async () => {
    const res = await batch(
      [
        post('/api/v1/customers', { ...customerBody('typed'), payment_terms_days: 45 }),
        post(
          '/api/v1/sales-orders',
          salesOrderBody('{{0.id}}', {
            payment_terms_days: '{{0.payment_terms_days}}',
            notes: 'Terms: {{0.payment_terms_days}} days for {{0.name}}, a {{0.customer_type}}',
            lines: [
              {
                description: '{{0.name}}',
                quantity: '1',
                unit_price_cents: '{{0.payment_terms_days}}',
                tax_rate: '0',
              },
            ],
          }),
        ),
      ],
      admin,
    );
    expect(res.status).toBe(200);
    const order = res.body.results[1].body;
    expect(order.payment_terms_days).toBe(45);
    expect(order.notes).toBe('Terms: 45 days for Batch customer typed, a company');
    expect(order.lines[0]).toMatchObject({
      description: 'Batch customer typed',
      unit_price_cents: 45,
    });
  });

  it('reads nested fields, and leaves an escaped reference as literal text', async () => {
    const res = await batch(
      [
        post('/api/v1/customers', customerBody('nested')),
        post('/api/v1/sales-orders', salesOrderBody('{{0.id}}')),
        post('/api/v1/sales-orders', {
          ...salesOrderBody('{{1.customer_id}}'),
          customer_reference: '\\{{1.number}}',
          notes: 'First line of {{1.number}}: {{1.lines.0.description}}',
        }),
      ],
      admin,
    );
    expect(res.status).toBe(200);
    const [, first, second] = res.body.results.map((r: { body: unknown }) => r.body);
    expect(second.customer_id).toBe(first.customer_id);
    expect(second.customer_reference).toBe('{{1.number}}');
    expect(second.notes).toBe(`First line of ${first.number}: Chaise`);
  });

  it('refuses a reference to its own or a later operation before anything runs: 400 naming the index', async () => {
    const before = await footprint(portal, tenant.id);
    for (const [operations, index, reference] of [
      [
        [
          post('/api/v1/customers', customerBody('self')),
          post('/api/v1/sales-orders', salesOrderBody('{{1.id}}')),
        ],
        1,
        '{{1.id}}',
      ],
      [
        [
          post('/api/v1/customers', customerBody('later')),
          post('/api/v1/sales-orders/{{7.id}}/confirm'),
        ],
        1,
        '{{7.id}}',
      ],
      [[post('/api/v1/sales-orders', salesOrderBody('{{0.id}}'))], 0, '{{0.id}}'],
    ] as const) {
      const res = await batch([...operations], admin);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'requete_invalide',
        params: { index, reason: 'invalid_reference', reference, problem: 'not_earlier' },
      });
    }
    expect(await footprint(portal, tenant.id)).toEqual(before);
  });

  it('refuses a reference to a field the answer lacks, or a value that cannot be text, writing nothing', async () => {
    const before = await footprint(portal, tenant.id);
    const cases: [BatchOperation, string, string][] = [
      [post('/api/v1/sales-orders', salesOrderBody('{{0.nope}}')), '{{0.nope}}', 'missing'],
      [post('/api/v1/sales-orders', salesOrderBody('{{0.id.x}}')), '{{0.id.x}}', 'missing'],
      [post('/api/v1/sales-orders/{{0.email}}/confirm'), '{{0.email}}', 'not_text'],
      [post('/api/v1/sales-orders', salesOrderBody('x{{0.email}}')), '{{0.email}}', 'not_text'],
      [
        post('/api/v1/sales-orders', salesOrderBody('{{0.__proto__}}')),
        '{{0.__proto__}}',
        'missing',
      ],
    ];
    for (const [second, reference, problem] of cases) {
      const res = await batch([post('/api/v1/customers', customerBody('missing')), second], admin);
      expect(res.status, reference).toBe(400);
      expect(res.body).toMatchObject({
        code: 'requete_invalide',
        params: { index: 1, reason: 'invalid_reference', reference, problem },
      });
    }
    // A delete answers no body: there is nothing to refer to.
    const created = await batch([post('/api/v1/customers', customerBody('deleted'))], admin);
    const id = created.body.results[0].body.id;
    const res = await batch(
      [{ method: 'DELETE', path: `/api/v1/customers/${id}` }, get('/api/v1/customers/{{0.id}}')],
      admin,
    );
    expect(res.body.params).toMatchObject({ index: 1, problem: 'missing' });
    expect(await footprint(portal, tenant.id)).toMatchObject({
      ...before,
      customers: before.customers + 1,
      // The customer created on its own above, and nothing of the refused batches.
      events: before.events + 1,
    });
  });
});

describe('all or nothing', () => {
  it('a batch failing at operation 57 leaves nothing of operations 1–56, events and webhook deliveries included', async () => {
    // 28 customers, each followed by an order for it: 56 operations, then a 57th that fails.
    const good: BatchOperation[] = [];
    for (let n = 0; n < 28; n++) {
      good.push(post('/api/v1/customers', customerBody(`57-${n}`)));
      good.push(post('/api/v1/sales-orders', salesOrderBody(`{{${2 * n}.id}}`)));
    }
    const failing = post('/api/v1/sales-orders', salesOrderBody(randomUUID()));
    const lastNumber = async () =>
      (
        await batch(
          [
            post('/api/v1/customers', customerBody('n')),
            post('/api/v1/sales-orders', salesOrderBody('{{0.id}}')),
          ],
          admin,
        )
      ).body.results[1].body.number as string;
    const numberBefore = await lastNumber();
    const before = await footprint(portal, tenant.id);

    const res = await batch([...good, failing], admin);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'requete_invalide', params: { index: 56 } });
    expect(res.body.params.issues[0]).toMatchObject({ path: 'customer_id', code: 'not_found' });
    expect(await footprint(portal, tenant.id)).toEqual(before);
    // The numbers the 28 orders took were given back with them: no gap.
    const numberAfter = await lastNumber();
    expect(Number(numberAfter.slice(-5))).toBe(Number(numberBefore.slice(-5)) + 1);

    // The same 56 without the failing one are all kept, each with its event, the orders' for
    // the webhook outbox.
    const kept = await footprint(portal, tenant.id);
    const ok = await batch(good, admin);
    expect(ok.status).toBe(200);
    expect(ok.body.results).toHaveLength(56);
    expect(await footprint(portal, tenant.id)).toEqual({
      ...kept,
      customers: kept.customers + 28,
      orders: kept.orders + 28,
      // Every creation is an event (the feed's); the subscribed sales_order.created ones are
      // the outbox's, and the writes queue no job.
      events: kept.events + 56,
      watched: kept.watched + 28,
      jobs: kept.jobs,
    });
  });

  it('answers the failing operation’s own error with its index: not found, transition, If-Match', async () => {
    const made = await batch(
      [
        post('/api/v1/customers', customerBody('errors')),
        post('/api/v1/sales-orders', salesOrderBody('{{0.id}}')),
      ],
      admin,
    );
    const order = made.body.results[1].body;
    const before = await footprint(portal, tenant.id);
    const missing = randomUUID();
    const cases: [BatchOperation[], number, string, Record<string, unknown>][] = [
      [[get(`/api/v1/customers/${missing}`)], 404, 'introuvable', { index: 0, id: missing }],
      [
        [
          post(`/api/v1/sales-orders/${order.id}/confirm`),
          post(`/api/v1/sales-orders/${order.id}/confirm`),
        ],
        409,
        'transition_invalide',
        { index: 1, from: 'confirme', action: 'confirm' },
      ],
      [
        [
          post('/api/v1/customers', customerBody('etag')),
          {
            method: 'PATCH',
            path: `/api/v1/sales-orders/${order.id}`,
            body: { notes: 'x' },
            if_match: '"7"',
          },
        ],
        409,
        'conflit',
        { index: 1, reason: 'version_mismatch', current_etag: '"1"' },
      ],
      [
        [get('/api/v1/customers?colour=eq.blue')],
        400,
        'filtre_invalide',
        { index: 0, field: 'colour' },
      ],
    ];
    for (const [operations, status, code, params] of cases) {
      const res = await batch(operations, admin);
      expect(res.status, code).toBe(status);
      expect(res.body).toMatchObject({ code, params });
    }
    expect(await footprint(portal, tenant.id)).toEqual(before);
    // A patch with the right If-Match is kept.
    const patched = await batch(
      [
        {
          method: 'PATCH',
          path: `/api/v1/sales-orders/${order.id}`,
          body: { notes: 'ok' },
          if_match: '"1"',
        },
      ],
      admin,
    );
    expect(patched.body.results[0]).toMatchObject({
      status: 200,
      etag: '"2"',
      body: { notes: 'ok' },
    });
  });
});

describe('what a batch takes', () => {
  it('refuses more than 100 operations, and none, before anything runs', async () => {
    const before = await footprint(portal, tenant.id);
    const many = Array.from({ length: 101 }, (_, n) =>
      post('/api/v1/customers', customerBody(`many-${n}`)),
    );
    const res = await batch(many, admin);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('requete_invalide');
    expect(res.body.params.issues[0]).toMatchObject({ path: 'operations', code: 'too_big' });
    expect((await batch([], admin)).body.params.issues[0]).toMatchObject({ code: 'too_small' });
    expect(await footprint(portal, tenant.id)).toEqual(before);
    // 100 is allowed.
    expect((await batch(many.slice(0, 100), admin)).body.results).toHaveLength(100);
  });

  it('runs only business resource operations: other routes and malformed paths are refused', async () => {
    const before = await footprint(portal, tenant.id);
    const refused: BatchOperation[] = [
      post('/api/v1/settings/users', { email: 'x@example.com', name: 'X', roles: ['admin'] }),
      post('/api/v1/batch', { operations: [] }),
      get('/api/v1/settings/webhooks'),
      post('/api/v1/auth/logout', { refresh_token: 'x' }),
      get('https://elsewhere.example/api/v1/customers'),
      get('/api/v1/customers/../settings/users'),
      get('/api/v1/customers/'),
      get('/api/v1/nothing-here'),
      post('/api/v1/customers/{{0.id}}'),
      { method: 'DELETE', path: '/api/v1/customers' },
      post('/api/v1/{{0.name}}', customerBody('x')),
    ];
    for (const operation of refused) {
      const res = await batch([post('/api/v1/customers', customerBody('ok')), operation], admin);
      expect(res.status, operation.path).toBe(400);
      expect(res.body.params, operation.path).toMatchObject({
        index: 1,
        reason: 'unsupported_operation',
      });
    }
    expect(
      (await batch([{ method: 'PUT', path: '/api/v1/customers' } as never], admin)).status,
    ).toBe(400);
    expect(await footprint(portal, tenant.id)).toEqual(before);
  });

  it('checks each operation as its route alone would, and refuses what it would ignore', async () => {
    const cases: [BatchOperation, Record<string, unknown>][] = [
      [post('/api/v1/customers', { name: 42 }), { index: 0 }],
      [get('/api/v1/customers/not-a-uuid'), { index: 0 }],
      [post('/api/v1/customers'), { index: 0 }],
      [
        post(`/api/v1/sales-orders/${randomUUID()}/confirm`, { x: 1 }),
        { index: 0, reason: 'unexpected_body' },
      ],
      [
        { ...post('/api/v1/customers', customerBody('m')), if_match: '"1"' },
        { index: 0, reason: 'unexpected_if_match' },
      ],
      [
        get(`/api/v1/customers/${randomUUID()}?page_size=3`),
        { index: 0, reason: 'unexpected_query', names: ['page_size'] },
      ],
      [
        get(`/api/v1/customers/${randomUUID()}?select=name&nope=1`),
        { index: 0, reason: 'unexpected_query', names: ['nope'] },
      ],
      [
        { method: 'DELETE', path: `/api/v1/customers/${randomUUID()}?select=name` },
        { index: 0, reason: 'unexpected_query', names: ['select'] },
      ],
      [get('/api/v1/customers?page_size=500'), { index: 0 }],
    ];
    for (const [operation, params] of cases) {
      const res = await batch([operation], admin);
      expect(res.status, JSON.stringify(operation)).toBe(400);
      expect(res.body).toMatchObject({ code: 'requete_invalide', params });
    }
    const issues = (await batch([post('/api/v1/customers', { name: 42 })], admin)).body.params
      .issues;
    expect(issues.map((i: { path: string }) => i.path)).toContain('name');
  });
});

describe('an action’s empty body', () => {
  it('`{}` on an action or a delete is accepted in a batch as the route alone accepts it; a body with something in it is still refused', async () => {
    const made = await batch(
      [
        post('/api/v1/customers', customerBody('empty-body')),
        post('/api/v1/sales-orders', salesOrderBody('{{0.id}}')),
        post('/api/v1/sales-orders', salesOrderBody('{{0.id}}')),
      ],
      admin,
    );
    const [, first, second] = made.body.results.map((r: { body: { id: string } }) => r.body.id);
    // Alone, an action with `{}` is accepted: what integrators' clients send.
    const alone = await portal.json(
      await portal.post(`/api/v1/sales-orders/${first}/confirm`, {}, admin),
    );
    expect(alone.status).toBe(200);
    expect(alone.body.status).toBe('confirme');
    const batched = await batch([post(`/api/v1/sales-orders/${second}/confirm`, {})], admin);
    expect(batched.status).toBe(200);
    expect(batched.body.results[0]).toMatchObject({ status: 200, body: { status: 'confirme' } });
    const deleted = await batch(
      [
        post('/api/v1/customers', customerBody('empty-delete')),
        { method: 'DELETE', path: '/api/v1/customers/{{0.id}}', body: {} },
      ],
      admin,
    );
    expect(deleted.status).toBe(200);
    const refused = await batch([post(`/api/v1/sales-orders/${second}/cancel`, { x: 1 })], admin);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'requete_invalide',
      params: { index: 0, reason: 'unexpected_body' },
    });
  });
});

describe('names of Object.prototype (`__proto__`, `constructor`, `prototype`, `toString`)', () => {
  const NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

  it('as query names of a batched list, get or action, or as body keys: a 4xx {code, params, message} or handled, never a 500', async () => {
    const [customer] = (await batch([post('/api/v1/customers', customerBody('proto'))], admin)).body
      .results;
    const id = customer.body.id;
    const seen: string[] = [];
    for (const name of NAMES) {
      const operations: BatchOperation[] = [
        get(`/api/v1/customers?${name}=1`),
        get(`/api/v1/customers?${name}=eq.1&${name}=eq.2`),
        get(`/api/v1/customers?select=${name}`),
        get(`/api/v1/customers?embed=${name}`),
        get(`/api/v1/customers?order=${name}`),
        get(`/api/v1/customers/${id}?${name}=1`),
        get(`/api/v1/customers/${id}?select=${name}`),
        get(`/api/v1/customers/${id}?embed=${name}`),
        post(`/api/v1/customers?${name}=1`, customerBody('proto-q')),
        post('/api/v1/customers', { ...customerBody('proto-b'), [name]: 1 }),
        post(
          '/api/v1/customers',
          JSON.parse(`{"name":"x","customer_type":"company","${name}":{"a":1}}`),
        ),
        { method: 'PATCH', path: `/api/v1/customers/${id}`, body: { [name]: 'x' } },
        get(`/api/v1/customers/{{0.${name}}}`),
      ];
      for (const operation of operations) {
        const res = await batch([get(`/api/v1/customers/${id}`), operation], admin);
        const label = `${operation.method} ${operation.path} ${JSON.stringify(operation.body ?? null)}`;
        expect(res.status, label).toBeLessThan(500);
        if (res.status >= 400) {
          expect(Object.keys(res.body).sort(), label).toEqual(['code', 'message', 'params']);
          expect(res.body.params.index, label).toBe(1);
        }
        seen.push(`${res.status}`);
      }
      // As a filter or an order it is an unknown field, batched or alone, never an inherited member.
      for (const query of [`${name}=eq.1`, `order=${name}`]) {
        const batched = await batch([get(`/api/v1/customers?${query}`)], admin);
        expect(batched.status, query).toBe(400);
        expect(batched.body, query).toMatchObject({
          code: 'filtre_invalide',
          params: { index: 0, field: name, reason: 'unknown_field' },
        });
        const alone = await portal.json(
          await portal.request(`/api/v1/customers?${query}`, { headers: admin }),
        );
        expect(alone.status, query).toBe(400);
        expect(alone.body, query).toMatchObject({
          code: 'filtre_invalide',
          params: { field: name, reason: 'unknown_field' },
        });
      }
    }
    expect(seen).toHaveLength(NAMES.length * 13);
  });
});
