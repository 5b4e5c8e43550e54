import http from 'node:http';
import {
  boolean,
  date,
  decimal,
  defineResource,
  integer,
  json,
  lines,
  text,
  timestamp,
} from '@erp/contract';
import { resourceTableSql } from '@erp/db/resource-ddl';
import { serveApp } from '@erp/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, session } from '../../test/harness';
import { buildApp } from '../app';
import { streamCopy } from './copy-stream';
import { exportSql, parseListQuery, wholeRecord } from './read';
import { createTenantDatabase } from './tenant-database';

/** A synthetic resource with a field of every type an export writes differently. */
const widget = defineResource({
  name: 'widget',
  path: 'widgets',
  module: 'inventory',
  description: 'Every type a CSV cell writes.',
  fields: {
    label: text({ required: true, filterable: true, sortable: true }),
    note: text({ filterable: true, maxLength: 5000 }),
    qty: integer({ required: true, filterable: true, sortable: true }),
    ratio: decimal({ filterable: true }),
    active: boolean({ filterable: true }),
    due_on: date({ filterable: true }),
    seen_at: timestamp({ filterable: true }),
    extra: json(),
    parts: lines({ sku: text({ required: true }), quantity: decimal({ required: true }) }),
  },
});
const NOTES = [
  'plain',
  'a, comma',
  'say "hi"',
  'two\r\nlines',
  'just\nLF',
  '',
  null,
  'ünïcødé 🚀',
  '"',
  ' leading space',
  'back\\slash \\" and a tab\t',
  'bell \u0007 and \u0001',
];

// biome-ignore lint/suspicious/noExplicitAny: rows are read loosely; each assertion states its shape.
type Row = Record<string, any>;
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let app: ReturnType<typeof buildApp>;
let headers: Record<string, string>;

beforeAll(async () => {
  portal = await createTestPortal();
  await portal.tdb.pool.query(resourceTableSql(widget));
  app = buildApp(portal.deps, [widget]);
  const tenant = await portal.provisionTenant('enterprise');
  headers = session((await portal.login(tenant.adminEmail)).access_token, tenant.slug);
  for (let i = 0; i < 30; i++) {
    const res = await app.request('/api/v1/widgets', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        label: `w${String(i % 7)}`,
        note: NOTES[i % NOTES.length],
        qty: (i * 7) % 11,
        ratio: i % 3 === 0 ? null : `${i}.25`,
        active: i % 2 === 0,
        due_on: i % 4 === 0 ? null : `2026-0${(i % 9) + 1}-1${i % 10}`,
        seen_at: i % 5 === 0 ? null : `2026-03-0${(i % 9) + 1}T10:0${i % 10}:00.123456Z`,
        extra: i % 3 === 0 ? null : { i, tag: 'a,"b"', nested: [1, 'x\ny'] },
        parts: [{ sku: `SKU-${i}, "big"`, quantity: '1.5' }],
      }),
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  }
}, 60_000);
afterAll(() => portal.tdb.close());

const get = (path: string, extra: Record<string, string> = headers) =>
  app.request(path, { headers: extra });

/** Every row the list returns for a query, page after page. */
async function listAll(query: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor = '';
  do {
    const res = await get(
      `/api/v1/widgets?${query}&page_size=7${cursor ? `&cursor=${cursor}` : ''}`,
    );
    const body = (await res.json()) as { data: Row[]; next_cursor: string | null };
    rows.push(...body.data);
    cursor = body.next_cursor ?? '';
  } while (cursor);
  return rows;
}

/** RFC 4180: fields separated by commas, records by CRLF; a quoted field may hold both and `""`. */
function parseCsv(text: string): { cells: string[][]; quoted: boolean[][] } {
  const cells: string[][] = [];
  const quoted: boolean[][] = [];
  let i = 0;
  while (i < text.length) {
    const row: string[] = [];
    const rowQuoted: boolean[] = [];
    for (;;) {
      let cell = '';
      const isQuoted = text[i] === '"';
      if (isQuoted) {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error('unterminated quote');
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              cell += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          cell += text[i++];
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
          if (text[i] === '"' || text[i] === '\n')
            throw new Error(`bare ${JSON.stringify(text[i])} at ${i}`);
          cell += text[i++];
        }
      }
      row.push(cell);
      rowQuoted.push(isQuoted);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text.slice(i, i + 2) !== '\r\n') throw new Error(`expected CRLF at ${i}`);
      i += 2;
      break;
    }
    cells.push(row);
    quoted.push(rowQuoted);
  }
  return { cells, quoted };
}

describe('export', () => {
  it('ndjson: every row the list returns for the same filters and order, one JSON record a line', async () => {
    const query = 'qty=gte.2&order=qty.desc,label.asc';
    const res = await get(`/api/v1/widgets/export?format=ndjson&${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="widgets.ndjson"');
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    const rows = text
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line));
    const listed = await listAll(query);
    expect(listed.length).toBeGreaterThan(10);
    expect(rows).toEqual(listed);
  });

  it("takes every filter the list takes, with the list's answer (values never in the SQL text)", async () => {
    const queries = [
      'label=in.(w1,w2,"w3")',
      `note=eq.${encodeURIComponent('say "hi"')}`,
      `note=like.${encodeURIComponent('back\\\\slash*')}`,
      "note=ilike.*'*",
      'ratio=is.null&order=label.desc',
      'seen_at=gte.2026-03-03T10:00:00Z&active=is.true',
      'due_on=lt.2026-05-01&qty=neq.3',
      `label=eq.${encodeURIComponent("w1'; DROP TABLE widgets; --")}`,
    ];
    for (const query of queries) {
      const res = await get(`/api/v1/widgets/export?format=ndjson&${query}`);
      expect(res.status, query).toBe(200);
      const text = await res.text();
      const rows = text
        ? text
            .slice(0, -1)
            .split('\n')
            .map((line) => JSON.parse(line))
        : [];
      expect(rows, query).toEqual(await listAll(query));
    }
    const notes = (await listAll('order=qty.asc')).map((r) => r.note);
    expect(notes).toContain('back\\slash \\" and a tab\t');
  });

  it('csv: a header row, then RFC 4180 rows whose cells are the JSON values as text', async () => {
    const res = await get('/api/v1/widgets/export?format=csv&order=qty.asc');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="widgets.csv"');
    const { cells, quoted } = parseCsv(await res.text());
    const [header, ...body] = cells;
    const fields = Object.keys(widget.allFields);
    expect(header).toEqual(fields);
    const listed = await listAll('order=qty.asc');
    expect(body).toHaveLength(listed.length);
    body.forEach((row, r) => {
      const record = listed[r]!;
      fields.forEach((field, f) => {
        const value = record[field];
        const cell = row[f];
        const label = `${record.id}.${field}`;
        if (value === null) {
          expect(cell, label).toBe('');
          expect(quoted[r + 1]![f], `${label}: null is an empty cell, unquoted`).toBe(false);
        } else if (typeof value === 'object') expect(JSON.parse(cell!), label).toEqual(value);
        else expect(cell, label).toBe(String(value));
      });
      const note = fields.indexOf('note');
      if (record.note === '') expect(quoted[r + 1]![note], 'an empty text is ""').toBe(true);
    });
    expect(body.map((r) => r[fields.indexOf('note')])).toEqual(
      expect.arrayContaining(['two\r\nlines', 'say "hi"', 'a, comma', '"']),
    );
  });

  it('select: only the named fields (and id), in that order, in both formats', async () => {
    const csv = await get('/api/v1/widgets/export?format=csv&select=qty,label&label=eq.w1');
    const { cells } = parseCsv(await csv.text());
    expect(cells[0]).toEqual(['id', 'qty', 'label']);
    expect(cells.slice(1).every((row) => row[2] === 'w1')).toBe(true);
    expect(cells.length).toBeGreaterThan(2);
    const ndjson = await get('/api/v1/widgets/export?format=ndjson&select=label,id');
    const first = JSON.parse((await ndjson.text()).split('\n')[0]!);
    expect(Object.keys(first)).toEqual(['label', 'id']);
  });

  it('an empty result: nothing, or the header alone', async () => {
    expect(await (await get('/api/v1/widgets/export?format=ndjson&qty=gt.1000')).text()).toBe('');
    expect(
      await (await get('/api/v1/widgets/export?format=csv&qty=gt.1000&select=qty')).text(),
    ).toBe('id,qty\r\n');
  });

  it('refuses bad parameters before anything is sent, in the error shape', async () => {
    const cases: [string, number, string][] = [
      ['', 400, 'requete_invalide'],
      ['format=xml', 400, 'requete_invalide'],
      ['format=csv&format=ndjson', 400, 'requete_invalide'],
      ['format=csv&qty=gt.abc', 400, 'filtre_invalide'],
      ['format=csv&colour=eq.red', 400, 'filtre_invalide'],
      ['format=csv&order=note.asc', 400, 'filtre_invalide'],
      ['format=csv&select=colour', 400, 'requete_invalide'],
      ['format=ndjson&embed=parts', 400, 'requete_invalide'],
      ['format=ndjson&page_size=10', 400, 'requete_invalide'],
      ['format=ndjson&cursor=abc', 400, 'requete_invalide'],
    ];
    for (const [query, status, code] of cases) {
      const res = await get(`/api/v1/widgets/export?${query}`);
      expect(res.status, query).toBe(status);
      expect(res.headers.get('content-type'), query).toMatch(/^application\/json/);
      expect(((await res.json()) as { code: string }).code, query).toBe(code);
    }
  });

  it('needs the read right of the module', async () => {
    const tenant = await portal.provisionTenant('enterprise');
    const salesUser = await portal.addUser(tenant, ['sales:editor']);
    const res = await get(
      '/api/v1/widgets/export?format=csv',
      session(salesUser.token, tenant.slug),
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: 'acces_refuse',
      params: { required: 'inventory:read' },
    });
    const reader = await portal.addUser(tenant, ['inventory:reader']);
    const allowed = await get(
      '/api/v1/widgets/export?format=csv',
      session(reader.token, tenant.slug),
    );
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toBe(`${Object.keys(widget.allFields).join(',')}\r\n`);
  });
});

describe('export, streamed over a real socket', () => {
  const ROWS = 20_000;
  let bigTenant: { id: string; headers: Record<string, string> };
  let tenantDb: ReturnType<typeof createTenantDatabase>;
  let server: Awaited<ReturnType<typeof serveApp>>;
  /** Connections of the tenant pool inside a transaction (a cursor being read). */
  const inTransaction = async () =>
    (
      await portal.tdb.pool.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'portal-tenant' AND xact_start IS NOT NULL`,
      )
    ).rows[0].n as number;
  const until = async (check: () => Promise<boolean>, ms = 5_000) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    return true;
  };

  beforeAll(async () => {
    const tenant = await portal.provisionTenant('enterprise');
    bigTenant = {
      id: tenant.id,
      headers: session((await portal.login(tenant.adminEmail)).access_token, tenant.slug),
    };
    await portal.tdb.pool.query(
      `INSERT INTO widgets (tenant_id, label, qty, note) SELECT $1, 'w' || g, g, repeat('x', 1000) FROM generate_series(1, ${ROWS}) g`,
      [tenant.id],
    );
    // One connection: a stream that kept it would leave every later request waiting.
    tenantDb = createTenantDatabase({ url: portal.tdb.url, max: 1 });
    const single = buildApp({ ...portal.deps, tenantDb }, [widget]);
    server = await serveApp({ fetch: single.fetch, port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await tenantDb?.close();
  });

  it('streams every row with backpressure, and a client that disconnects mid-stream gives the connection back', async () => {
    const full = await fetch(`${server.url}/api/v1/widgets/export?format=ndjson&select=qty`, {
      headers: bigTenant.headers,
    });
    expect(full.headers.get('transfer-encoding')).toBe('chunked');
    const lineCount = (await full.text()).split('\n').length - 1;
    expect(lineCount).toBe(ROWS);

    const received = await new Promise<number>((resolve, reject) => {
      const request = http.get(
        `${server.url}/api/v1/widgets/export?format=csv`,
        { headers: bigTenant.headers },
        (response) => {
          let bytes = 0;
          response.once('data', async (chunk: Buffer) => {
            bytes += chunk.length;
            response.pause();
            try {
              // The client reads nothing more: the portal waits for it rather than reading
              // every row into memory, so the cursor's transaction is still open.
              await new Promise((r) => setTimeout(r, 500));
              expect(await inTransaction()).toBe(1);
              request.destroy();
              resolve(bytes);
            } catch (error) {
              reject(error);
            }
          });
        },
      );
      request.on('error', () => {});
    });
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(ROWS * 1000);
    expect(await until(async () => (await inTransaction()) === 0)).toBe(true);
    // The pool's only connection is back: the next request is answered.
    const after = await fetch(`${server.url}/api/v1/widgets?page_size=1`, {
      headers: bigTenant.headers,
      signal: AbortSignal.timeout(5_000),
    });
    expect(after.status).toBe(200);
  }, 60_000);

  it('a reader that stalls loses the stream and the connection goes back to the pool', async () => {
    const query = parseListQuery(widget, {});
    const { text, params } = exportSql(widget, bigTenant.id, query, wholeRecord(widget), 'ndjson');
    const errors: unknown[] = [];
    const stream = await streamCopy(
      await tenantDb.readOnly(bigTenant.id),
      { text, values: params.values },
      { head: '', separator: '\n' },
      { stallMs: 300, onError: (e) => errors.push(e) },
    );
    const reader = stream.getReader();
    expect((await reader.read()).value!.length).toBeGreaterThan(0);
    expect(await inTransaction()).toBe(1);
    expect(await until(async () => (await inTransaction()) === 0)).toBe(true);
    expect(errors).toHaveLength(1);
    await expect(async () => {
      for (;;) if ((await reader.read()).done) break;
    }).rejects.toThrow(/took nothing/);
  }, 30_000);
});
