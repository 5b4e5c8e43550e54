import { readFileSync } from 'node:fs';
import { catalogue, type Field, type Resource, USER } from '@erp/contract';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from './migrations/index';
import { resourceTableSql } from './resource-ddl';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

/** information_schema's data_type for each field type (written out, not derived from the DDL). */
const DATA_TYPE: Record<Field['type'], string> = {
  text: 'text',
  email: 'text',
  enum: 'text',
  integer: 'integer',
  money: 'bigint',
  decimal: 'numeric',
  boolean: 'boolean',
  date: 'date',
  timestamp: 'timestamp with time zone',
  uuid: 'uuid',
  reference: 'uuid',
  lines: 'jsonb',
  json: 'jsonb',
};

type Column = [name: string, dataType: string, nullable: boolean];

function expectedColumns(r: Resource): Column[] {
  const columns: Column[] = [
    ['id', 'uuid', false],
    ['tenant_id', 'uuid', false],
  ];
  if (r.numbering) columns.push(['number', 'text', false]);
  if (r.lifecycle) columns.push(['status', 'text', false]);
  for (const [name, f] of Object.entries(r.fields))
    columns.push([name, DATA_TYPE[f.type], !(f.required || f.type === 'lines')]);
  if (r.totalsFrom)
    for (const c of ['subtotal_cents', 'tax_cents', 'total_cents'])
      columns.push([c, 'bigint', false]);
  if ('posted_at' in r.readOnlyFields)
    columns.push(['posted_at', 'timestamp with time zone', true]);
  if ('amount_due_cents' in r.readOnlyFields) columns.push(['amount_due_cents', 'bigint', false]);
  if (r.ledgerRole === 'payment')
    columns.push(['allocated_cents', 'bigint', false], ['unallocated_cents', 'bigint', false]);
  columns.push(
    ['version', 'integer', false],
    ['created_at', 'timestamp with time zone', false],
    ['updated_at', 'timestamp with time zone', false],
  );
  return columns;
}

describe('the catalogue migrations', () => {
  // Columns a later migration adds come last in the table: compared by name, not position.
  it.each(catalogue.map((r) => [r.table, r] as const))('create %s as declared', async (_, r) => {
    const { rows } = await sql<{ column_name: string; data_type: string; is_nullable: string }>`
      SELECT column_name, data_type, is_nullable FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = ${r.table}
    `.execute(tdb.db);
    const byName = (a: Column, b: Column) => (a[0] < b[0] ? -1 : 1);
    expect(
      rows.map((c): Column => [c.column_name, c.data_type, c.is_nullable === 'YES']).sort(byName),
    ).toEqual(expectedColumns(r).sort(byName));
  });

  it.each(catalogue.map((r) => [r.table, r] as const))('isolates %s by tenant', async (_, r) => {
    const { rows } = await sql<{ force: boolean; enabled: boolean; policy: string | null }>`
      SELECT c.relrowsecurity AS enabled, c.relforcerowsecurity AS force,
        (SELECT p.qual FROM pg_policies p WHERE p.tablename = c.relname AND p.policyname = 'tenant_isolation') AS policy
      FROM pg_class c WHERE c.oid = ${r.table}::regclass
    `.execute(tdb.db);
    expect(rows[0]).toEqual({
      enabled: true,
      force: true,
      policy: '(tenant_id = erp_tenant_id())',
    });
    const privileges = await sql<{ ok: boolean }>`
      SELECT has_table_privilege('erp_app', ${r.table}, 'SELECT, INSERT, UPDATE, DELETE') AS ok
    `.execute(tdb.db);
    expect(privileges.rows[0]!.ok).toBe(true);
  });

  it.each(catalogue.map((r) => [r.table, r] as const))(
    'keeps %s references in the tenant',
    async (_, r) => {
      const { rows } = await sql<{ def: string }>`
      SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid = ${r.table}::regclass AND contype = 'f'
    `.execute(tdb.db);
      const tableOf = new Map(catalogue.map((c) => [c.name, c.table]));
      const expected = ['FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE'];
      for (const [name, f] of Object.entries(r.fields)) {
        if (f.type === 'reference' && f.resource === USER)
          expected.push(
            `FOREIGN KEY (tenant_id, ${name}) REFERENCES memberships(tenant_id, user_id)`,
          );
        else if (f.type === 'reference')
          expected.push(
            `FOREIGN KEY (tenant_id, ${name}) REFERENCES ${tableOf.get(f.resource)}(tenant_id, id)`,
          );
      }
      expect(rows.map((c) => c.def).sort()).toEqual(expected.sort());
    },
  );

  it('drops every table on the way down', async () => {
    const rollback = new Error('rollback');
    const remaining = await tdb.db
      .transaction()
      .execute(async (trx) => {
        // The migrations that make or change business tables (the generated ones and the
        // first catalogues), newest first: later ones add tables and keys that refer to the
        // first ones.
        const dir = new URL('./migrations/', import.meta.url);
        const downs = Object.entries(migrations)
          .filter(
            ([name]) =>
              /-(first-catalogue|tenant-references|full-catalogue)$/.test(name) ||
              readFileSync(new URL(`${name}.ts`, dir), 'utf8').includes(
                'Generated by `pnpm --filter @erp/db schema-migration`',
              ),
          )
          .reverse();
        for (const [, migration] of downs) await migration.down!(trx as unknown as Kysely<unknown>);
        const { rows } = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_tables
          WHERE schemaname = 'public' AND tablename = ANY(${catalogue.map((r) => r.table)}::text[])
        `.execute(trx);
        throw Object.assign(rollback, { remaining: rows[0]!.n });
      })
      .catch((e: Error & { remaining?: number }) => {
        if (e !== rollback) throw e;
        return e.remaining;
      });
    expect(remaining).toBe(0);
  });
});

describe('resourceTableSql', () => {
  it('refuses a reference it cannot resolve', () => {
    const invoice = catalogue.find((r) => r.name === 'invoice')!;
    expect(() => resourceTableSql(invoice)).toThrow(/unknown resource customer/);
  });
});

describe('row-level security on business tables', () => {
  let tenantA: string;
  let tenantB: string;
  const customerOf = new Map<string, string>();

  /** Runs `work` as the application role, with `tenant` as the transaction's tenant (or none). */
  function asTenant<T>(tenant: string | null, work: (trx: Kysely<unknown>) => Promise<T>) {
    return tdb.db.transaction().execute(async (trx) => {
      await sql`SELECT set_config('app.tenant_id', ${tenant ?? ''}, true), set_config('role', 'erp_app', true)`.execute(
        trx,
      );
      return work(trx as unknown as Kysely<unknown>);
    });
  }

  const insertCustomer = (trx: Kysely<unknown>, tenant: string, name: string) =>
    sql<{ id: string }>`
      INSERT INTO customers (tenant_id, name, customer_type, active)
      VALUES (${tenant}, ${name}, 'company', true) RETURNING id
    `.execute(trx);

  const insertSalesOrder = (trx: Kysely<unknown>, tenant: string, customer: string) =>
    sql<{ number: string }>`
      INSERT INTO sales_orders (tenant_id, number, customer_id, order_date, currency)
      VALUES (${tenant}, next_document_number('SO'), ${customer}, '2026-03-05', 'EUR') RETURNING number
    `.execute(trx);

  beforeAll(async () => {
    const { rows } = await sql<{ id: string; slug: string }>`
      INSERT INTO tenants (slug, name) VALUES ('rls-a', 'A'), ('rls-b', 'B') RETURNING id, slug
    `.execute(tdb.db);
    tenantA = rows.find((t) => t.slug === 'rls-a')!.id;
    tenantB = rows.find((t) => t.slug === 'rls-b')!.id;
    for (const [tenant, name] of [
      [tenantA, 'Customer of A'],
      [tenantB, 'Customer of B'],
    ] as const) {
      const inserted = await asTenant(tenant, (trx) => insertCustomer(trx, tenant, name));
      customerOf.set(tenant, inserted.rows[0]!.id);
    }
  });

  it('shows a tenant its own rows only, without any filter in the query', async () => {
    const rows = await asTenant(tenantA, async (trx) => {
      const result = await sql<{
        name: string;
        tenant_id: string;
      }>`SELECT * FROM customers`.execute(trx);
      return result.rows;
    });
    expect(rows.map((r) => [r.tenant_id, r.name])).toEqual([[tenantA, 'Customer of A']]);
    // The superuser, which bypasses RLS, sees both: the filter above came from the policy.
    const all = await sql<{ n: number }>`SELECT count(*)::int AS n FROM customers`.execute(tdb.db);
    expect(all.rows[0]!.n).toBe(2);
  });

  it('shows nothing when no tenant is set', async () => {
    const rows = await asTenant(null, async (trx) => {
      const result = await sql`SELECT * FROM customers`.execute(trx);
      return result.rows;
    });
    expect(rows).toEqual([]);
  });

  it('refuses to write a row into another tenant', async () => {
    await expect(
      asTenant(tenantA, (trx) => insertCustomer(trx, tenantB, 'Smuggled')),
    ).rejects.toMatchObject({ code: '42501' });
  });

  it("refuses a reference to another tenant's record, even with its id", async () => {
    const own = await asTenant(tenantA, (trx) =>
      insertSalesOrder(trx, tenantA, customerOf.get(tenantA)!),
    );
    expect(own.rows[0]!.number).toMatch(/^SO-\d{4}-00001$/);
    await expect(
      asTenant(tenantA, (trx) => insertSalesOrder(trx, tenantA, customerOf.get(tenantB)!)),
    ).rejects.toMatchObject({ code: '23503' });
  });

  it('formats a document number in one place, an immutable function both numberings call', async () => {
    const { rows } = await sql<{ a: string; b: string; volatility: string; calls: boolean }>`
      SELECT erp_document_number('SO', 2026, 42) AS a, erp_document_number('FAC', 2027, 123456) AS b,
        (SELECT provolatile FROM pg_proc WHERE proname = 'erp_document_number') AS volatility,
        (SELECT prosrc LIKE '%erp_document_number(%' FROM pg_proc WHERE proname = 'next_document_number') AS calls
    `.execute(tdb.db);
    expect(rows[0]).toEqual({
      a: 'SO-2026-00042',
      b: 'FAC-2027-123456',
      volatility: 'i',
      calls: true,
    });
  });

  it('expands the number format into the statement that numbers (no function call per insert)', async () => {
    // 0047's declaration kept PostgreSQL from inlining it (STRICT over a non-strict `greatest`,
    // and a STABLE `text || integer` in an IMMUTABLE body): each numbered insert then planned
    // and ran its body as a function of its own (migration 0050).
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      EXPLAIN (VERBOSE, COSTS OFF)
      SELECT erp_document_number('SO', 2026, g::bigint) FROM generate_series(1, 2) g
    `.execute(tdb.db);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('lpad(');
    expect(plan).not.toContain('erp_document_number');
    const { rows: nulls } = await sql<{ a: string | null }>`
      SELECT erp_document_number(NULL, 2026, 1) AS a
    `.execute(tdb.db);
    expect(nulls[0]!.a).toBeNull();
  });
});
