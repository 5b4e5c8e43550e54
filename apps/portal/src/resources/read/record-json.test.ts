import {
  boolean,
  date,
  decimal,
  defineResource,
  email,
  enumOf,
  integer,
  json,
  lines,
  lookupOf,
  money,
  reference,
  text,
  timestamp,
  uuid,
} from '@erp/contract';
import { resourceTableSql } from '@erp/db/resource-ddl';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReadShape, type ReadShape, wholeRecord } from './read-shape';
import { RAW_TEXT, recordColumns } from './record-json';
import { namedColumns } from './record-sql';

/**
 * The list's JSON, joined in Node from the columns' text, against what PostgreSQL's
 * `row_to_json` writes for the same row (the form every other read and write answers): equal
 * byte for byte, for every field type, at the edges of what each column can hold (even values
 * the API refuses but SQL can store), under a session whose DateStyle and TimeZone differ from
 * the defaults.
 */
const gizmo = defineResource({
  name: 'gizmo',
  path: 'gizmos',
  module: 'inventory',
  description: 'Every field type.',
  fields: {
    label: text({ required: true }),
    contact: email(),
    kind: enumOf(['alpha', 'beta']),
    qty: integer(),
    price_cents: money(),
    ratio: decimal(),
    active: boolean(),
    due_on: date(),
    seen_at: timestamp(),
    parent_id: reference('gizmo'),
    external_id: uuid(),
    extra: json(),
    items: lines({ note: text(), amount: decimal() }),
  },
});

// Every control character, quotes, backslashes, `/`, DEL, non-ASCII, astral, U+2028/2029.
const TRICKY = `${Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('')} "q" \\b\\ /slash/ \u007f é 日本 😀 \u2028\u2029 <script>`;

const ROWS: Array<Record<string, string | null>> = [
  {
    label: TRICKY,
    contact: 'a"b@example.test',
    kind: 'alpha',
    qty: '-2147483648',
    price_cents: '-9223372036854775808',
    ratio: '-999999999999.999999',
    active: 'true',
    due_on: '0044-03-15 BC',
    seen_at: '2026-03-05 10:11:12.123456+05:30',
    external_id: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
    extra: JSON.stringify({ s: TRICKY, n: 1.5e300, nested: [null, true, { 'k"': 'v' }] }),
    items: JSON.stringify([
      { note: TRICKY, amount: '1.000001' },
      { note: null, amount: '0' },
    ]),
  },
  {
    label: '',
    contact: null,
    kind: null,
    qty: '2147483647',
    price_cents: '9223372036854775807',
    ratio: 'NaN',
    active: 'false',
    due_on: 'infinity',
    seen_at: '-infinity',
    external_id: null,
    extra: null,
    items: '[]',
  },
  {
    label: 'x',
    contact: null,
    kind: 'beta',
    qty: '0',
    price_cents: '0',
    ratio: '0.000000',
    active: null,
    due_on: '9999-12-31',
    seen_at: '1900-01-01 00:00:00+00:09:21',
    external_id: null,
    extra: '{}',
    items: '[{"note": "é", "amount": "12.5"}]',
  },
  {
    label: 'BC and far',
    contact: null,
    kind: null,
    qty: null,
    price_cents: null,
    ratio: null,
    active: null,
    due_on: '12345-06-07',
    seen_at: '0044-03-15 12:00:00.5-03:30 BC',
    external_id: null,
    extra: null,
    items: '[]',
  },
  {
    label: 'offsets',
    contact: null,
    kind: null,
    qty: null,
    price_cents: null,
    ratio: null,
    active: null,
    due_on: null,
    seen_at: '12345-06-07 08:09:10+00',
    external_id: null,
    extra: null,
    items: '[]',
  },
];

let tdb: TestDatabase;
let client: pg.PoolClient;
const tenantId = '00000000-0000-7000-8000-000000000001';

beforeAll(async () => {
  tdb = await createTestDatabase();
  await tdb.pool.query(resourceTableSql(gizmo));
  await tdb.pool.query(`INSERT INTO tenants (id, slug, name) VALUES ($1, 'json-t', 'T')`, [
    tenantId,
  ]);
  let parent: string | null = null;
  for (const row of ROWS) {
    const names = Object.keys(row);
    const inserted: pg.QueryResult<{ id: string }> = await tdb.pool.query(
      `INSERT INTO gizmos (tenant_id, parent_id, ${names.join(', ')})
       VALUES ($1, $2, ${names.map((_, i) => `$${i + 3}`).join(', ')}) RETURNING id`,
      [tenantId, parent, ...Object.values(row)],
    );
    parent = inserted.rows[0]!.id;
  }
  client = await tdb.pool.connect();
  // Output in ISO (PostgreSQL's default, which node-pg's date parsing assumes too) but days
  // before months for input, and a zone with historical offsets in seconds: the offsets in
  // the JSON follow the session's TimeZone in both reads.
  await client.query("SET DateStyle = 'ISO, DMY'; SET TimeZone = 'Europe/Paris'");
}, 60_000);
afterAll(async () => {
  client?.release();
  await tdb.close();
});

/** Each row's JSON as Node joins it, and as `row_to_json` writes it, oldest first. */
async function both(shape: ReadShape) {
  const columns = recordColumns(gizmo, shape, 't');
  const nodeRows = await client.query<Array<string | null>>({
    text: `SELECT ${columns.select.join(', ')} FROM gizmos t ORDER BY t.created_at, t.id`,
    rowMode: 'array',
    types: RAW_TEXT,
  });
  const pgRows = await client.query<{ j: string }>(
    `SELECT row_to_json(x)::text AS j FROM gizmos t CROSS JOIN LATERAL (SELECT ${namedColumns(gizmo, shape, 't')}) x ORDER BY t.created_at, t.id`,
  );
  return { node: nodeRows.rows.map(columns.encode), pg: pgRows.rows.map((r) => r.j) };
}

describe('recordColumns: the record JSON joined in Node', () => {
  it('is row_to_json byte for byte, for every field type and its edge values', async () => {
    const { node, pg } = await both(wholeRecord(gizmo));
    expect(pg).toHaveLength(ROWS.length);
    expect(node).toEqual(pg);
    // The values really are the edge ones (not nulls everywhere): spot-check the text forms.
    const first = JSON.parse(node[0]!);
    expect(first.label).toBe(TRICKY);
    expect(first.due_on).toBe('0044-03-15 BC');
    expect(first.seen_at).toBe('2026-03-05T05:41:12.123456+01:00');
    expect(first.external_id).toBe('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
    expect(node[0]).toContain('"price_cents":-9223372036854775808,');
    expect(JSON.parse(node[1]!)).toMatchObject({
      ratio: 'NaN',
      active: false,
      seen_at: '-infinity',
    });
    expect(JSON.parse(node[2]!).seen_at).toBe('1900-01-01T00:00:00+00:09:21');
    expect(JSON.parse(node[3]!).due_on).toBe('12345-06-07');
    expect(JSON.parse(node[4]!).seen_at).toBe('12345-06-07T10:09:10+02:00');
    // Where offsets are whole hours, even in year 44 BC.
    await client.query("SET TimeZone = 'UTC'");
    try {
      const utc = await both(wholeRecord(gizmo));
      expect(utc.node).toEqual(utc.pg);
      expect(JSON.parse(utc.node[3]!).seen_at).toBe('0044-03-15T15:30:00.5+00:00 BC');
    } finally {
      await client.query("SET TimeZone = 'Europe/Paris'");
    }
  });

  it('follows select and embed as row_to_json does (order, embedded records, nulls)', async () => {
    const registry = lookupOf([gizmo]);
    const access = { rights: new Set(['inventory:read']), modules: ['inventory'] };
    const queries: Record<string, string[]>[] = [
      { select: ['seen_at,label'] },
      { select: ['items'], embed: ['parent'] },
      { embed: ['parent'] },
    ];
    for (const query of queries) {
      const shape = parseReadShape(gizmo, registry, query, access);
      const { node, pg } = await both(shape);
      expect(node).toEqual(pg);
    }
  });
});
