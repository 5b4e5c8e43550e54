/**
 * Citus-readiness (SPEC §19), read from the migrated database (the catalogue's generated tables
 * and the hand-written ones alike): every table is distributed by tenant_id, a reference table or
 * local to the coordinator, and a distributed table's keys and references hold tenant_id first.
 */
import { readFileSync } from 'node:fs';
import { catalogue } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import {
  citusScript,
  distributionGaps,
  LOCAL_TABLES,
  placementOf,
  REFERENCE_TABLES,
  readTables,
  type TableKeys,
} from './distribution';
import { catalogueSchema, userColumns } from './model';

let tdb: TestDatabase;
let tables: TableKeys[];
beforeAll(async () => {
  tdb = await createTestDatabase();
  tables = await readTables(tdb.pool);
});
afterAll(() => tdb.close());

describe('the schema as Citus would distribute it', () => {
  it('every distributed table: tenant_id NOT NULL, first in its primary key, its unique keys and its references to other distributed tables', () => {
    const keyGaps = distributionGaps(tables).filter((gap) => !gap.endsWith('trigger(s)'));
    expect(keyGaps).toEqual([]);
    // What the check covers: the catalogue's 182 tables and the hand-written tenant tables.
    const distributed = tables.filter((t) => placementOf(t) === 'distributed').map((t) => t.table);
    for (const resource of catalogue) expect(distributed).toContain(resource.table);
    for (const table of [
      'events',
      'webhook_deliveries',
      'webhook_delivery_attempts',
      'ledger_lines',
      'einvoice_files',
    ])
      expect(distributed).toContain(table);
  });

  it('the reference and local tables are the only exceptions, each named with its reason', () => {
    const names = new Set(tables.map((t) => t.table));
    for (const table of [...REFERENCE_TABLES, ...Object.keys(LOCAL_TABLES)])
      expect(names.has(table), table).toBe(true);
    for (const t of tables.filter((x) => !x.tenantColumn || x.tenantNullable))
      expect(placementOf(t), t.table).not.toBe('distributed');
  });

  it('can fail: a key or a reference without the tenant first is named', () => {
    const bad: TableKeys = {
      table: 'fx_orders',
      tenantColumn: true,
      tenantNullable: false,
      primaryKey: ['id'],
      uniques: [{ name: 'fx_orders_number_key', columns: ['number'] }],
      foreignKeys: [
        { name: 'fx', columns: ['customer_id'], table: 'customers', referenced: ['id'] },
        { name: 'ok', columns: ['tenant_id'], table: 'tenants', referenced: ['id'] },
      ],
      triggers: [],
    };
    expect(distributionGaps([...tables, bad]).filter((g) => g.startsWith('fx_orders'))).toEqual([
      'fx_orders: primary key (id)',
      'fx_orders: unique (number)',
      'fx_orders: reference (customer_id) → customers (id)',
    ]);
  });

  /**
   * What is left before the schema can be distributed (docs/scale-out.md): the triggers. Each
   * table's triggers are the ones the catalogue's declarations put there (its user references'
   * release on memberships, its line references, its books' and goods' invariants) or the
   * hand-written ones named here; a new trigger anywhere fails this test until it is accounted for.
   */
  it('the triggers left on tenant tables are exactly the declared ones (the work left)', () => {
    const schema = catalogueSchema(catalogue);
    const declared = new Set(
      Object.entries(schema.tables)
        .filter(([, t]) => userColumns(t).length || t.lineReferences.length || t.invariants.length)
        .map(([name]) => name),
    );
    const handWritten = new Set(['events', 'webhook_subscriptions', 'memberships']);
    const withTriggers = tables.filter(
      (t) => placementOf(t) === 'distributed' && t.triggers.length,
    );
    const unexplained = withTriggers
      .map((t) => t.table)
      .filter((name) => !handWritten.has(name) && !isTriggerTarget(name));
    expect(unexplained).toEqual([]);
    function isTriggerTarget(name: string): boolean {
      // Tables other tables' declared triggers sit on (line references and user releases live on the referenced table).
      return (
        declared.has(name) ||
        Object.values(schema.tables).some((t) => t.lineReferences.some((r) => r.target === name))
      );
    }
  });

  it('docs/citus.sql is the script this schema generates (pnpm --filter @erp/db citus-script)', () => {
    const committed = readFileSync(new URL('../../../../docs/citus.sql', import.meta.url), 'utf8');
    expect(committed).toBe(citusScript(tables));
    expect(committed).toContain("SELECT create_reference_table('tenants');");
    expect(committed).toContain(
      "SELECT create_distributed_table('invoices', 'tenant_id', colocate_with => 'account_balances');",
    );
  });
});
