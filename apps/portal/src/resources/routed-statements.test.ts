import { catalogue } from '@erp/contract';
import { volatileCalls } from '@erp/db/statements';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../seed';
import { createTestPortal, session } from '../../test/harness';
import { populate } from '../../test/resources-harness';

/**
 * The engine's writes call no volatile function (SPEC §19): Citus routes such a statement whole
 * to the tenant's node. Read from the statements the portal really sends, with PostgreSQL's
 * parser and the catalogue's volatility (column defaults of what an INSERT leaves out included).
 */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let headers: Record<string, string>;
let refs: Map<string, string[]>;
const salesOrder = catalogue.find((r) => r.name === 'sales_order')!;

beforeAll(async () => {
  portal = await createTestPortal();
  const tenant = await portal.provisionTenant('enterprise');
  headers = {
    ...session((await portal.login(tenant.adminEmail)).access_token, tenant.slug),
    'content-type': 'application/json',
  };
  refs = await populate(
    portal,
    catalogue.filter((r) => ['customer', 'product', 'sales_order'].includes(r.name)),
    headers,
    1,
  );
}, 120_000);
afterAll(() => portal.tdb.close());

/** The statements sent while `run` runs (every pg client of the process). */
async function statementsOf(run: () => Promise<void>): Promise<string[]> {
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  // biome-ignore lint/suspicious/noExplicitAny: pg.Client's query is a family of overloads.
  pg.Client.prototype.query = function (this: pg.Client, config: any, ...rest: any[]) {
    sent.push(typeof config === 'string' ? config : String(config?.text ?? ''));
    return (query as (...a: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof query;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent.filter((t) => /\b(INSERT|UPDATE|DELETE)\b/i.test(t) && /\bWITH\b/.test(t));
}

describe('the engine’s writes', () => {
  it('create (numbered), patch, action and delete: no volatile function but the events’ recorded_at, defaults included', async () => {
    let id = '';
    const writes = await statementsOf(async () => {
      const created = await portal
        .post('/api/v1/sales-orders', sampleBody(salesOrder, 1, refs), headers)
        .then(portal.json);
      expect(created.status).toBe(201);
      id = created.body.id;
      const patched = await portal
        .request(`/api/v1/sales-orders/${id}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ notes: 'routed' }),
        })
        .then(portal.json);
      expect(patched.status).toBe(200);
      const cancelled = await portal
        .post(`/api/v1/sales-orders/${id}/cancel`, {}, headers)
        .then(portal.json);
      expect(cancelled.status).toBe(200);
      const draft = await portal
        .post('/api/v1/sales-orders', sampleBody(salesOrder, 2, refs), headers)
        .then(portal.json);
      const deleted = await portal.request(`/api/v1/sales-orders/${draft.body.id}`, {
        method: 'DELETE',
        headers,
      });
      expect(deleted.status).toBe(204);
    });
    expect(writes.length).toBeGreaterThanOrEqual(4);
    expect(writes.some((w) => w.includes('document_sequences'))).toBe(true);
    // The one left: an event's `recorded_at`, the instant after the row locks (change-events-sql.ts).
    const allowed = 'clock_timestamp (default of events.recorded_at)';
    for (const text of writes)
      expect(
        (await volatileCalls(portal.tdb.pool, text)).filter((call) => call !== allowed),
        text,
      ).toEqual([]);
  });

  it('can fail: a statement calling a volatile function, or leaving a column to a volatile default, is named', async () => {
    expect(
      await volatileCalls(
        portal.tdb.pool,
        "WITH r AS (INSERT INTO events (tenant_id, type, resource, resource_id, data) VALUES ($1, 'x', 'y', $2, '{}') RETURNING id) SELECT next_document_number('SO') FROM r",
      ),
    ).toEqual([
      'clock_timestamp (default of events.recorded_at)',
      'erp_uuidv7 (default of events.id)',
      'next_document_number',
    ]);
  });
});
