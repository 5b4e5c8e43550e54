/**
 * Citus-readiness (SPEC §19), read from the migrated database (the catalogue's generated tables
 * and the hand-written ones alike): every table is distributed by tenant_id, a reference table or
 * local to the coordinator, and a distributed table's keys and references hold tenant_id first.
 */
import { readFileSync } from 'node:fs';
import { catalogue } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { loadParser, readTriggerSources, triggerConfinement } from './confinement';
import {
  citusScript,
  distributionGaps,
  LOCAL_TABLES,
  placementOf,
  REFERENCE_TABLES,
  readTables,
  type TableKeys,
  TRIGGER_REASONS,
} from './distribution';

let tdb: TestDatabase;
let tables: TableKeys[];
let sources: Awaited<ReturnType<typeof readTriggerSources>>;
let placement: (table: string) => ReturnType<typeof placementOf> | undefined;
beforeAll(async () => {
  tdb = await createTestDatabase();
  tables = await readTables(tdb.pool);
  sources = await readTriggerSources(tdb.pool);
  const placements = new Map(tables.map((t) => [t.table, placementOf(t)]));
  placement = (table) => placements.get(table);
  await loadParser();
});
afterAll(() => tdb.close());

describe('the schema as Citus would distribute it', () => {
  it('every distributed table: tenant_id NOT NULL, first in its primary key, its unique keys and its references to other distributed tables', () => {
    expect(distributionGaps(tables)).toEqual([]);
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

  it('every trigger on a distributed table is row by row or reads no tenant’s rows, confined to its row’s tenant, and accounted for', () => {
    const onDistributed = sources.triggers.filter((t) => placement(t.table) === 'distributed');
    expect(onDistributed.length).toBeGreaterThan(150);
    const problems = onDistributed.flatMap((t) =>
      triggerConfinement(t, sources.functions, placement).map((p) => `${t.table}.${t.name}: ${p}`),
    );
    expect(problems).toEqual([]);
    const unaccounted = onDistributed
      .filter((t) => TRIGGER_REASONS.filter((r) => r.function.test(t.function)).length !== 1)
      .map((t) => `${t.table}.${t.name} (${t.function})`);
    expect(unaccounted).toEqual([]);
  });

  it('can fail: a trigger reading or writing another tenant’s rows, or a coordinator’s table, is named', () => {
    const fx = (body: string, level: 'row' | 'statement' = 'row', transition: string[] = []) => {
      const functions = new Map(sources.functions);
      functions.set('fx_trigger', {
        name: 'fx_trigger',
        language: 'plpgsql',
        args: [],
        definition: `CREATE FUNCTION fx_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$\nDECLARE v uuid; w uuid := NEW.tenant_id; r record;\nBEGIN\n${body}\nRETURN NULL;\nEND\n$fn$`,
        body,
      });
      const trigger = {
        table: 'invoices',
        name: 'fx',
        function: 'fx_trigger',
        level,
        transitionTables: transition,
      };
      return triggerConfinement(trigger, functions, placement);
    };
    // Confined: the row's tenant, directly, through a variable, a join, or a callee's parameter.
    expect(fx('PERFORM FROM products t WHERE t.tenant_id = NEW.tenant_id;')).toEqual([]);
    expect(
      fx(
        'PERFORM FROM products p JOIN taxes x ON x.tenant_id = p.tenant_id WHERE p.tenant_id = w;',
      ),
    ).toEqual([]);
    expect(fx('UPDATE products SET name = NULL WHERE tenant_id = OLD.tenant_id;')).toEqual([]);
    expect(
      fx('INSERT INTO products (tenant_id, name) VALUES (NEW.tenant_id, NEW.number);'),
    ).toEqual([]);
    expect(fx("PERFORM payment_allocations_settle(NEW.tenant_id, 'invoices', NEW.id, 1);")).toEqual(
      [],
    );
    expect(fx('PERFORM FROM tenants WHERE id = NEW.customer_id;')).toEqual([]);
    // Not confined.
    expect(fx('PERFORM FROM products t WHERE t.id = NEW.id;')).toEqual([
      "fx_trigger: reads or writes products without the row's tenant",
    ]);
    expect(fx('PERFORM FROM products t WHERE t.id = NEW.tenant_id;')).toEqual([
      "fx_trigger: reads or writes products without the row's tenant",
    ]);
    expect(
      fx('PERFORM FROM products p JOIN taxes x ON x.id = p.id WHERE p.tenant_id = NEW.tenant_id;'),
    ).toEqual(["fx_trigger: reads or writes taxes without the row's tenant"]);
    expect(fx('UPDATE products SET name = NULL WHERE tenant_id = v;')).toEqual([
      "fx_trigger: reads or writes products without the row's tenant",
    ]);
    expect(fx('INSERT INTO products (tenant_id, name) VALUES (v, NEW.number);')).toEqual([
      "fx_trigger: inserts into products without the row's tenant",
    ]);
    expect(
      fx("PERFORM payment_allocations_settle(NEW.customer_id, 'invoices', NEW.id, 1);"),
    ).toEqual([
      "payment_allocations_settle: reads or writes erp_dynamic_relation without the row's tenant",
    ]);
    expect(fx("EXECUTE 'SELECT 1 FROM ' || TG_TABLE_NAME;")).toEqual([
      "fx_trigger: EXECUTE of a statement not built by format('…')",
    ]);
    expect(fx('PERFORM FROM api_keys WHERE tenant_id = NEW.tenant_id;')).toEqual([
      'fx_trigger: reads api_keys, local to the coordinator',
    ]);
    expect(
      fx('PERFORM FROM products p JOIN new_rows n ON n.tenant_id = p.tenant_id;', 'statement', [
        'new_rows',
      ]),
    ).toEqual(["fx_trigger: reads or writes products without the row's tenant"]);
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
