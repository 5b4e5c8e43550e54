import {
  catalogue,
  createRegistry,
  defineResource,
  lines as linesOf,
  reference,
  USER,
} from '@erp/contract';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  up as addTenantReferences,
  down as dropTenantReferences,
} from '../migrations/2026-11-24-0012-tenant-references';
import { resourceDropSql, resourceTableSql } from '../resource-ddl';
import { createTestDatabase, rollingBack, type TestDatabase } from '../testing';

/**
 * What ddl.ts's references add beyond foreign keys, at the database (the API's answers are in
 * apps/portal/test/references.test.ts): line items' references, users as members.
 */
let tdb: TestDatabase;
let tenantA: string;
let tenantB: string;
const customerOf = new Map<string, string>();

/** Runs `work` as the application role, with `tenant` as the transaction's tenant. */
function asTenant<T>(tenant: string, work: (trx: Kysely<unknown>) => Promise<T>) {
  return tdb.db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('app.tenant_id', ${tenant}, true), set_config('role', 'erp_app', true)`.execute(
      trx,
    );
    return work(trx as unknown as Kysely<unknown>);
  });
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  const { rows } = await sql<{ id: string; slug: string }>`
    INSERT INTO tenants (slug, name) VALUES ('ref-a', 'A'), ('ref-b', 'B') RETURNING id, slug
  `.execute(tdb.db);
  tenantA = rows.find((t) => t.slug === 'ref-a')!.id;
  tenantB = rows.find((t) => t.slug === 'ref-b')!.id;
  for (const tenant of [tenantA, tenantB]) {
    const inserted = await asTenant(tenant, (trx) =>
      sql<{ id: string }>`
        INSERT INTO customers (tenant_id, name, customer_type, active)
        VALUES (${tenant}, 'Customer', 'company', true) RETURNING id
      `.execute(trx),
    );
    customerOf.set(tenant, inserted.rows[0]!.id);
  }
});
afterAll(() => tdb.close());

describe('resourceTableSql and resourceDropSql', () => {
  it("gives a new resource its references' guarantees, and resourceDropSql takes them all away", async () => {
    const gadget = defineResource({
      name: 'gadget',
      path: 'gadgets',
      module: 'sales',
      description: 'g',
      fields: {
        owner_id: reference(USER),
        parts: linesOf({ product_id: reference('product', { required: true }) }),
      },
    });
    const registry = new Map([...createRegistry(catalogue), ['gadget', gadget]]);
    const objects = (trx: Kysely<unknown>) =>
      sql<{ name: string }>`
        SELECT proname AS name FROM pg_proc WHERE proname LIKE 'gadgets\_%'
        UNION ALL SELECT tgname FROM pg_trigger WHERE tgname LIKE 'gadgets\_%'
        UNION ALL SELECT conname FROM pg_constraint WHERE conname LIKE 'gadgets\_%fkey'
        ORDER BY 1
      `
        .execute(trx)
        .then((r) => r.rows.map((row) => row.name));
    const { created, dropped } = await rollingBack(tdb.db, async (trx) => {
      await sql.raw(resourceTableSql(gadget, registry)).execute(trx);
      const created = await objects(trx);
      await sql.raw(resourceDropSql(gadget, registry)).execute(trx);
      return { created, dropped: await objects(trx) };
    });
    expect(created).toEqual([
      'gadgets_line_referenced',
      'gadgets_line_references',
      'gadgets_line_references',
      'gadgets_release_member',
      'gadgets_release_member',
      'gadgets_tenant_id_fkey',
      'gadgets_tenant_id_owner_id_fkey',
    ]);
    expect(dropped).toEqual([]);
  });
});

describe('references kept in the tenant by the database', () => {
  const insertProduct = (trx: Kysely<unknown>, tenant: string) =>
    sql<{ id: string }>`
      INSERT INTO products (tenant_id, sku, name, product_type, unit_of_measure, active)
      VALUES (${tenant}, 'P-1', 'Chair', 'stockable', 'Unit', true) RETURNING id
    `.execute(trx);
  const lines = (product: string) =>
    JSON.stringify([{ product_id: product, description: 'Chair', quantity: '1' }]);

  it("refuses a line naming another tenant's product, as the app role and as a superuser", async () => {
    const productOfB = (await asTenant(tenantB, (trx) => insertProduct(trx, tenantB))).rows[0]!.id;
    const quote = (product: string) => sql`
      INSERT INTO quotes (tenant_id, number, customer_id, quote_date, currency, lines)
      VALUES (${tenantA}, 'Q-X', ${customerOf.get(tenantA)!}, '2026-03-05', 'EUR', ${lines(product)}::jsonb)
    `;
    await expect(asTenant(tenantA, (trx) => quote(productOfB).execute(trx))).rejects.toMatchObject({
      code: '23503',
      column: 'lines.0.product_id',
    });
    await expect(
      rollingBack(tdb.db, (trx) => quote(productOfB).execute(trx)),
    ).rejects.toMatchObject({
      code: '23503',
      column: 'lines.0.product_id',
    });
    await expect(
      rollingBack(tdb.db, (trx) => quote(productOfB.toUpperCase()).execute(trx)),
    ).rejects.toMatchObject({ code: '22P02' });
  });

  it('a product deleted while a line naming it is being written: the later one fails, as with a foreign key', async () => {
    const product = (await asTenant(tenantA, (trx) => insertProduct(trx, tenantA))).rows[0]!.id;
    const writer = await tdb.pool.connect();
    const deleter = await tdb.pool.connect();
    try {
      for (const client of [writer, deleter])
        await client.query(
          `BEGIN; SELECT set_config('role', 'erp_app', true), set_config('app.tenant_id', '${tenantA}', true)`,
        );
      await writer.query(
        `INSERT INTO quotes (tenant_id, number, customer_id, quote_date, currency, lines)
         VALUES ($1, 'Q-C', $2, '2026-03-05', 'EUR', $3::jsonb)`,
        [tenantA, customerOf.get(tenantA)!, lines(product)],
      );
      // The line locked the product FOR KEY SHARE: the delete waits for the writer's commit,
      // then finds the line and is refused.
      const deleted = deleter.query('DELETE FROM products WHERE id = $1', [product]).then(
        () => 'deleted',
        (e: { code?: string }) => e.code,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await writer.query('COMMIT');
      expect(await deleted).toBe('23503');
    } finally {
      await deleter.query('ROLLBACK');
      writer.release();
      deleter.release();
    }
  });

  it('deletes a tenant whole: line and member references do not stand in the way', async () => {
    const remaining = await rollingBack(tdb.db, async (trx) => {
      const { rows } = await sql<{ id: string }>`
        INSERT INTO users (email, name) VALUES ('gone@example.test', 'Gone') RETURNING id
      `.execute(trx);
      const user = rows[0]!.id;
      await sql`INSERT INTO memberships (tenant_id, user_id, roles) VALUES (${tenantB}, ${user}, '{}')`.execute(
        trx,
      );
      const product = (await insertProduct(trx, tenantB)).rows[0]!.id;
      await sql`
        INSERT INTO quotes (tenant_id, number, customer_id, quote_date, currency, lines)
        VALUES (${tenantB}, 'Q-1', ${customerOf.get(tenantB)!}, '2026-03-05', 'EUR', ${lines(product)}::jsonb)
      `.execute(trx);
      await sql`INSERT INTO leads (tenant_id, title, contact_name, owner_id) VALUES (${tenantB}, 'L', 'C', ${user})`.execute(
        trx,
      );
      await sql`DELETE FROM tenants WHERE id = ${tenantB}`.execute(trx);
      const counts = await sql<{ n: number }>`
        SELECT (SELECT count(*) FROM quotes WHERE tenant_id = ${tenantB})
             + (SELECT count(*) FROM products WHERE tenant_id = ${tenantB})
             + (SELECT count(*) FROM leads WHERE tenant_id = ${tenantB})
             + (SELECT count(*) FROM memberships WHERE tenant_id = ${tenantB}) AS n
      `.execute(trx);
      return Number(counts.rows[0]!.n);
    });
    expect(remaining).toBe(0);
  });

  it('migration 0012 repairs stored rows it can, and stops on a line naming another tenant', async () => {
    const outcome = await rollingBack(tdb.db, async (trx) => {
      await dropTenantReferences(trx);
      const product = (await insertProduct(trx, tenantA)).rows[0]!.id;
      const foreign = (await insertProduct(trx, tenantB)).rows[0]!.id;
      const quote = (productId: string, number: string) =>
        sql<{ id: string }>`
        INSERT INTO quotes (tenant_id, number, customer_id, quote_date, currency, lines)
        VALUES (${tenantA}, ${number}, ${customerOf.get(tenantA)!}, '2026-03-05', 'EUR', ${lines(productId)}::jsonb)
        RETURNING id
      `.execute(trx);
      const upper = (await quote(product.toUpperCase(), 'Q-U')).rows[0]!.id;
      const smuggled = (await quote(foreign, 'Q-S')).rows[0]!.id;
      await sql`INSERT INTO leads (tenant_id, title, contact_name, owner_id) VALUES (${tenantA}, 'Old', 'C', gen_random_uuid())`.execute(
        trx,
      );
      // A savepoint, so the refused attempt leaves the transaction usable.
      await sql`SAVEPOINT before_up`.execute(trx);
      const error = await addTenantReferences(trx).then(
        () => null,
        (e: Error) => e.message,
      );
      await sql`ROLLBACK TO SAVEPOINT before_up`.execute(trx);
      await sql`DELETE FROM quotes WHERE id = ${smuggled}`.execute(trx);
      await addTenantReferences(trx);
      const stored = await sql<{ lines: { product_id: string }[] }>`
        SELECT lines FROM quotes WHERE id = ${upper}
      `.execute(trx);
      const lead = await sql<{ owner_id: string | null; version: number }>`
        SELECT owner_id, version FROM leads WHERE title = 'Old'
      `.execute(trx);
      return {
        error,
        productId: stored.rows[0]!.lines[0]!.product_id,
        product,
        lead: lead.rows[0],
      };
    });
    expect(outcome.error).toMatch(
      /1 line\(s\) of quotes\.lines name a product_id that is no row of products/,
    );
    expect(outcome.productId).toBe(outcome.product);
    expect(outcome.lead).toEqual({ owner_id: null, version: 2 });
  });

  it("deleting a user unlinks them from every tenant's records, with a new version", async () => {
    const after = await rollingBack(tdb.db, async (trx) => {
      const { rows } = await sql<{ id: string }>`
        INSERT INTO users (email, name) VALUES ('leaving@example.test', 'Leaving') RETURNING id
      `.execute(trx);
      const user = rows[0]!.id;
      for (const tenant of [tenantA, tenantB]) {
        await sql`INSERT INTO memberships (tenant_id, user_id, roles) VALUES (${tenant}, ${user}, '{}')`.execute(
          trx,
        );
        await sql`INSERT INTO leads (tenant_id, title, contact_name, owner_id) VALUES (${tenant}, 'L', 'C', ${user})`.execute(
          trx,
        );
      }
      await sql`DELETE FROM users WHERE id = ${user}`.execute(trx);
      const leads = await sql<{ owner_id: string | null; version: number }>`
        SELECT owner_id, version FROM leads WHERE title = 'L' ORDER BY tenant_id
      `.execute(trx);
      return leads.rows;
    });
    expect(after).toEqual([
      { owner_id: null, version: 2 },
      { owner_id: null, version: 2 },
    ]);
  });
});
