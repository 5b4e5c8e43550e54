import { randomUUID } from 'node:crypto';
import {
  boolean,
  date,
  decimal,
  defineResource,
  email,
  enumOf,
  integer,
  money,
  reference,
  text,
  timestamp,
  uuid,
} from '@erp/contract';
import { resourceTableSql } from '@erp/db/resource-ddl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, session } from '../../test/harness';
import { buildApp } from '../app';

/** A synthetic resource with one field of every filterable type. */
const gadget = defineResource({
  name: 'gadget',
  path: 'gadgets',
  module: 'inventory',
  description: 'Every field type.',
  fields: {
    label: text({ required: true, filterable: true, sortable: true }),
    note: text({ filterable: true }),
    contact: email({ filterable: true }),
    kind: enumOf(['alpha', 'beta', 'gamma'], { filterable: true }),
    qty: integer({ required: true, filterable: true, sortable: true }),
    price_cents: money({ required: true, filterable: true, sortable: true }),
    ratio: decimal({ required: true, filterable: true, sortable: true }),
    active: boolean({ filterable: true }),
    due_on: date({ filterable: true }),
    seen_at: timestamp({ filterable: true }),
    parent_id: reference('gadget', { filterable: true }),
    external_id: uuid({ filterable: true }),
  },
});

const LABELS = [
  'a,b.(c)',
  'Réunion (été)',
  '日本語, テスト',
  'plain',
  'with "quotes"',
  'dot.dot.dot',
  'émoji 🚀',
  'UPPER',
  'lower',
  'semi;colon',
  'star*',
  'percent%',
];
type Row = Record<string, unknown> & { id: string };
// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely; each assertion states its shape.
type Json = any;

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let app: ReturnType<typeof buildApp>;
let headers: Record<string, string>;
const rows: Row[] = [];

beforeAll(async () => {
  portal = await createTestPortal();
  await portal.tdb.pool.query(resourceTableSql(gadget));
  app = buildApp(portal.deps, [gadget]);
  const tenant = await portal.provisionTenant('enterprise');
  headers = {
    ...session((await portal.login(tenant.adminEmail)).access_token, tenant.slug),
    'content-type': 'application/json',
  };
  for (let i = 0; i < 36; i++) {
    const body: Record<string, unknown> = {
      label: LABELS[i % LABELS.length]! + (i >= LABELS.length ? ` ${i}` : ''),
      qty: ((i * 7) % 23) - 5,
      price_cents: 10_000_000_000 + i * 1_000,
      ratio: ((i % 9) / 4).toFixed(2),
    };
    if (i % 5 !== 0) {
      body.note = i % 2 ? `Note ${i}, (x.y)` : 'ÉTÉ indien';
      body.contact = `c${i}@example.test`;
      body.kind = ['alpha', 'beta', 'gamma'][i % 3];
      body.active = i % 2 === 0;
      body.due_on = `2026-${String((i % 12) + 1).padStart(2, '0')}-15`;
      body.seen_at = new Date(Date.UTC(2026, 0, 1 + i, 12)).toISOString();
      body.external_id = randomUUID();
      if (rows.length) body.parent_id = rows[i % rows.length]!.id;
    }
    const res = await portal.json(
      await app.request('/api/v1/gadgets', { method: 'POST', headers, body: JSON.stringify(body) }),
    );
    expect(res.status).toBe(201);
    rows.push(res.body);
  }
}, 60_000);
afterAll(() => portal.tdb.close());

async function list(query: string): Promise<{ status: number; body: Json }> {
  return portal.json(await app.request(`/api/v1/gadgets?page_size=200&${query}`, { headers }));
}
const ids = (body: { data: Row[] }) => body.data.map((r) => r.id).sort();
const expected = (predicate: (r: Row) => boolean) =>
  rows
    .filter(predicate)
    .map((r) => r.id)
    .sort();
const q = (field: string, expression: string) => `${field}=${encodeURIComponent(expression)}`;

const num = (v: unknown) => Number(v);
const likeToRegex = (pattern: string, flags: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) =>
        p.replace(/[.*+?^${}()|[\]\\%_]/g, (c) => (c === '%' ? '.*' : c === '_' ? '.' : `\\${c}`)),
      )
      .join('.*')}$`,
    flags,
  );

describe('filters: every operator on every field type', () => {
  const cases: [string, string, (r: Row) => boolean][] = [
    ['label', 'eq.a,b.(c)', (r) => r.label === 'a,b.(c)'],
    ['label', 'eq.日本語, テスト', (r) => r.label === '日本語, テスト'],
    ['label', 'neq.plain', (r) => r.label !== 'plain'],
    [
      'label',
      'in.("a,b.(c)","Réunion (été)",plain)',
      (r) => ['a,b.(c)', 'Réunion (été)', 'plain'].includes(r.label as string),
    ],
    ['label', 'in.("with \\"quotes\\"")', (r) => r.label === 'with "quotes"'],
    ['label', 'like.*(été)*', (r) => likeToRegex('*(été)*', '').test(r.label as string)],
    ['label', 'ilike.réunion*', (r) => likeToRegex('réunion*', 'i').test(r.label as string)],
    ['label', 'like.star\\**', (r) => (r.label as string).startsWith('star')],
    ['note', 'is.null', (r) => r.note === null],
    ['note', 'ilike.*été*', (r) => r.note !== null && /été/i.test(r.note as string)],
    ['note', 'eq.Note 7, (x.y)', (r) => r.note === 'Note 7, (x.y)'],
    ['contact', 'eq.c7@example.test', (r) => r.contact === 'c7@example.test'],
    ['contact', 'like.c1*', (r) => typeof r.contact === 'string' && r.contact.startsWith('c1')],
    ['kind', 'eq.beta', (r) => r.kind === 'beta'],
    ['kind', 'neq.beta', (r) => r.kind !== null && r.kind !== 'beta'],
    ['kind', 'in.(alpha,gamma)', (r) => r.kind === 'alpha' || r.kind === 'gamma'],
    ['kind', 'is.null', (r) => r.kind === null],
    ['qty', 'eq.-5', (r) => r.qty === -5],
    ['qty', 'neq.0', (r) => r.qty !== 0],
    ['qty', 'gt.10', (r) => num(r.qty) > 10],
    ['qty', 'gte.10', (r) => num(r.qty) >= 10],
    ['qty', 'lt.0', (r) => num(r.qty) < 0],
    ['qty', 'lte.0', (r) => num(r.qty) <= 0],
    ['qty', 'in.(1,2,3,-5)', (r) => [1, 2, 3, -5].includes(num(r.qty))],
    ['price_cents', 'gt.10000020000', (r) => num(r.price_cents) > 10_000_020_000],
    ['price_cents', 'lte.10000005000', (r) => num(r.price_cents) <= 10_000_005_000],
    ['ratio', 'eq.1.5', (r) => num(r.ratio) === 1.5],
    ['ratio', 'gte.1.25', (r) => num(r.ratio) >= 1.25],
    ['ratio', 'lt.0.5', (r) => num(r.ratio) < 0.5],
    ['ratio', 'in.(0,2)', (r) => num(r.ratio) === 0 || num(r.ratio) === 2],
    ['active', 'eq.true', (r) => r.active === true],
    ['active', 'neq.true', (r) => r.active === false],
    ['active', 'is.false', (r) => r.active === false],
    ['active', 'is.null', (r) => r.active === null],
    ['due_on', 'eq.2026-03-15', (r) => r.due_on === '2026-03-15'],
    ['due_on', 'gt.2026-06-15', (r) => r.due_on !== null && (r.due_on as string) > '2026-06-15'],
    ['due_on', 'lte.2026-02-15', (r) => r.due_on !== null && (r.due_on as string) <= '2026-02-15'],
    [
      'seen_at',
      'gte.2026-01-20T12:00:00Z',
      (r) =>
        r.seen_at !== null && Date.parse(r.seen_at as string) >= Date.parse('2026-01-20T12:00:00Z'),
    ],
    [
      'seen_at',
      'lt.2026-01-10T00:00:00+02:00',
      (r) =>
        r.seen_at !== null &&
        Date.parse(r.seen_at as string) < Date.parse('2026-01-10T00:00:00+02:00'),
    ],
    ['parent_id', 'is.null', (r) => r.parent_id === null],
    ['external_id', 'is.null', (r) => r.external_id === null],
  ];

  it.each(cases)('%s=%s', async (field, expression, predicate) => {
    const res = await list(q(field, expression));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(ids(res.body)).toEqual(expected(predicate));
  });

  it('matches references and uuids by value', async () => {
    const target = rows.find((r) => r.parent_id)!;
    expect(ids((await list(q('parent_id', `eq.${target.parent_id}`))).body)).toEqual(
      expected((r) => r.parent_id === target.parent_id),
    );
    expect(
      ids((await list(q('external_id', `eq.${String(target.external_id).toUpperCase()}`))).body),
    ).toEqual([target.id]);
    const two = rows.filter((r) => r.external_id).slice(0, 2);
    expect(
      ids((await list(q('external_id', `in.(${two.map((r) => r.external_id).join(',')})`))).body),
    ).toEqual(two.map((r) => r.id).sort());
  });

  it('orders text the way the database collates it (checked against a direct query)', async () => {
    for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
      const res = await list(q('label', `${op}.m`));
      const sqlOp = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[op];
      const { rows: direct } = await portal.tdb.pool.query(
        `SELECT id FROM gadgets WHERE label ${sqlOp} 'm'`,
      );
      expect(ids(res.body), op).toEqual(direct.map((r) => r.id).sort());
      expect(ids(res.body).length, op).toBeGreaterThan(0);
    }
  });

  it('combines filters (repeated parameters are ANDed)', async () => {
    const res = await list(`${q('qty', 'gte.0')}&${q('qty', 'lt.10')}&${q('kind', 'eq.alpha')}`);
    expect(ids(res.body)).toEqual(
      expected((r) => num(r.qty) >= 0 && num(r.qty) < 10 && r.kind === 'alpha'),
    );
  });

  it('refuses unknown fields, operators and ill-typed values with filtre_invalide naming them', async () => {
    for (const [query, params] of [
      [q('colour', 'eq.red'), { field: 'colour' }],
      [q('qty', 'like.1*'), { field: 'qty', operator: 'like' }],
      [q('qty', 'eq.1.5'), { field: 'qty', value: '1.5' }],
      [q('due_on', 'gt.tomorrow'), { field: 'due_on', value: 'tomorrow' }],
      [q('kind', 'eq.delta'), { field: 'kind', value: 'delta' }],
      [q('active', 'in.(true)'), { field: 'active', operator: 'in' }],
      [q('label', 'in.(unterminated'), { field: 'label', reason: 'invalid_list' }],
      ['order=note.asc', { field: 'note', reason: 'not_sortable' }],
    ] as const) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ code: 'filtre_invalide', params });
    }
  });
});

describe('ordering and cursors', () => {
  async function walk(query: string, pageSize: number, during?: (page: number) => Promise<void>) {
    const seen: Row[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const res: { status: number; body: Json } = await portal.json(
        await app.request(
          `/api/v1/gadgets?page_size=${pageSize}&${query}${cursor ? `&cursor=${cursor}` : ''}`,
          { headers },
        ),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...res.body.data);
      cursor = res.body.next_cursor;
      await during?.(page++);
    } while (cursor);
    return seen;
  }

  it.each([
    'order=qty.asc',
    'order=ratio.desc,label.asc',
    'order=price_cents.desc',
    'order=label.asc,qty.desc',
    '',
  ])('pages through %s in order, every row once', async (order) => {
    const all = (await list(order)).body.data as Row[];
    const paged = await walk(order, 5);
    expect(paged.map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect(new Set(paged.map((r) => r.id)).size).toBe(rows.length);
  });

  it('returns every existing row exactly once while rows are inserted concurrently', async () => {
    const before = new Set((await list('')).body.data.map((r: Row) => r.id));
    const seen = await walk('order=qty.asc', 4, async (page) => {
      for (let k = 0; k < 3; k++) {
        const body = {
          label: `concurrent ${page}.${k}`,
          qty: ((page * 5 + k) % 23) - 5,
          price_cents: 1,
          ratio: '1',
        };
        await app.request('/api/v1/gadgets', {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
      }
    });
    const counts = new Map<string, number>();
    for (const r of seen) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    for (const id of before) expect(counts.get(id as string), `row ${id}`).toBe(1);
  });

  it('refuses a forged cursor or one from another order', async () => {
    const first = await portal.json(
      await app.request('/api/v1/gadgets?page_size=2&order=qty.asc', { headers }),
    );
    const other = await portal.json(
      await app.request(
        `/api/v1/gadgets?page_size=2&order=qty.desc&cursor=${first.body.next_cursor}`,
        { headers },
      ),
    );
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('requete_invalide');
    const forged = Buffer.from(
      JSON.stringify(['qty.asc,id.asc', ["1'; DROP TABLE gadgets; --", 'x']]),
    ).toString('base64url');
    expect(
      (
        await portal.json(
          await app.request(`/api/v1/gadgets?order=qty.asc&cursor=${forged}`, { headers }),
        )
      ).status,
    ).toBe(400);
    expect(
      (await portal.json(await app.request('/api/v1/gadgets?cursor=%%%', { headers }))).status,
    ).toBe(400);
  });

  it('bounds page_size', async () => {
    expect((await list('')).body.data.length).toBeGreaterThan(0);
    expect(
      (await portal.json(await app.request('/api/v1/gadgets', { headers }))).body.data.length,
    ).toBe(Math.min(50, rows.length + 100));
    for (const size of ['0', '201', 'x', '-1']) {
      expect(
        (await portal.json(await app.request(`/api/v1/gadgets?page_size=${size}`, { headers })))
          .status,
      ).toBe(400);
    }
  });
});
