import {
  boolean,
  date,
  defineResource,
  enumOf,
  integer,
  lines,
  type Resource,
  type ResourceDeclaration,
  reference,
  text,
  USER,
  uuid,
} from '@erp/contract';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, rollingBack, type TestDatabase } from '../testing';
import { createTableSql } from './ddl';
import { introspectTables } from './introspect';
import { type CatalogueSchema, catalogueSchema, inCreationOrder } from './model';
import { catalogLines } from './pg-catalog';
import { planMigration } from './plan';
import { serializeSnapshot } from './snapshot';

/**
 * The generator on small catalogues of its own: each change is planned, applied to a real
 * database holding rows, and must leave exactly the tables the next snapshot describes (as if
 * created from scratch, down to the triggers); `down` must give back the tables as they were.
 */
let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

const shelf = (fields: ResourceDeclaration['fields'] = {}) =>
  defineResource({
    name: 'fx_shelf',
    path: 'fx-shelves',
    module: 'inventory',
    description: 'A fixture.',
    fields: { code: text({ required: true, filterable: true }), ...fields },
  });

const crate = (
  fields: ResourceDeclaration['fields'] = {},
  lifecycle: ResourceDeclaration['lifecycle'] = {
    initial: 'brouillon',
    actions: {
      send: { from: ['brouillon'], to: 'envoye' },
      cancel: { from: ['brouillon', 'envoye'], to: 'annule' },
    },
  },
) =>
  defineResource({
    name: 'fx_crate',
    path: 'fx-crates',
    module: 'inventory',
    description: 'A fixture.',
    numbering: { prefix: 'FX' },
    fields: {
      shelf_id: reference('fx_shelf', { required: true }),
      size: enumOf(['s', 'm'], { required: true }),
      label: text(),
      ...fields,
    },
    lifecycle,
  });

const TABLES = ['fx_shelves', 'fx_crates', 'fx_pallets'];

async function createAll(trx: Kysely<unknown>, schema: CatalogueSchema) {
  for (const name of inCreationOrder(schema, Object.keys(schema.tables)))
    await sql.raw(createTableSql(name, schema.tables[name]!)).execute(trx);
}

async function createdFromScratch(schema: CatalogueSchema) {
  return rollingBack(tdb.db, async (trx) => {
    await createAll(trx, schema);
    return catalogLines(trx, TABLES);
  });
}

/**
 * Plans before → after, creates `before` with rows (`seed`), runs up (then `check`) and down
 * (then `checkDown`), and compares each state with the schema created from scratch.
 */
async function migrate(
  before: Resource[],
  after: Resource[],
  options: {
    renames?: Record<string, string>;
    seed?: (trx: Kysely<unknown>, tenant: string) => Promise<void>;
    check?: (trx: Kysely<unknown>) => Promise<void>;
    checkDown?: (trx: Kysely<unknown>) => Promise<void>;
  } = {},
) {
  const from = catalogueSchema(before);
  const plan = planMigration(from, catalogueSchema(after), options.renames);
  expect(plan.refusals).toEqual([]);
  const states = await rollingBack(tdb.db, async (trx) => {
    await createAll(trx, from);
    const { rows } = await sql<{ id: string }>`
      INSERT INTO tenants (slug, name) VALUES ('fixture', 'Fixture') RETURNING id
    `.execute(trx);
    await options.seed?.(trx, rows[0]!.id);
    for (const step of plan.steps) await sql.raw(step.up).execute(trx);
    const up = await catalogLines(trx, TABLES);
    const read = await introspectTables(trx, Object.keys(plan.next.tables));
    await options.check?.(trx);
    for (const step of [...plan.steps].reverse()) await sql.raw(step.down).execute(trx);
    await options.checkDown?.(trx);
    return { up, read, down: await catalogLines(trx, TABLES) };
  });
  expect(serializeSnapshot({ migration: 'x', schema: states.read })).toBe(
    serializeSnapshot({ migration: 'x', schema: plan.next }),
  );
  expect(states.up).toEqual(await createdFromScratch(plan.next));
  expect(states.down).toEqual(await createdFromScratch(from));
  return plan;
}

/** The error a statement fails with, the transaction still usable afterwards. */
async function failure(
  trx: Kysely<unknown>,
  statement: { execute(db: Kysely<unknown>): Promise<unknown> },
) {
  await sql`SAVEPOINT attempt`.execute(trx);
  const error = await statement.execute(trx).then(
    () => null,
    (e: unknown) => e,
  );
  await sql`ROLLBACK TO SAVEPOINT attempt`.execute(trx);
  return error;
}

const insertShelf = (trx: Kysely<unknown>, tenant: string) =>
  sql<{
    id: string;
  }>`INSERT INTO fx_shelves (tenant_id, code) VALUES (${tenant}, 'A1') RETURNING id`
    .execute(trx)
    .then((r) => r.rows[0]!.id);

describe('planMigration, applied to a database', () => {
  it('adds tables, each after those it refers to, with their references and indexes', async () => {
    const pallet = defineResource({
      name: 'fx_pallet',
      path: 'fx-pallets',
      module: 'inventory',
      description: 'A fixture.',
      fields: {
        crate_id: reference('fx_crate', { filterable: true }),
        checked_by: reference(USER),
        items: lines({ shelf_id: reference('fx_shelf') }),
        weighed_on: date({ required: true, sortable: true }),
      },
    });
    const plan = await migrate([shelf()], [pallet, crate(), shelf()]);
    expect(plan.steps.map((s) => s.table)).toEqual(['fx_crates', 'fx_pallets']);
    expect(plan.next.tables.fx_pallets!.indexes).toEqual({
      fx_pallets_checked_by: ['tenant_id', 'checked_by'],
      fx_pallets_crate_id: ['tenant_id', 'crate_id'],
      fx_pallets_created_at: ['tenant_id', 'created_at', 'id'],
      fx_pallets_updated_at: ['tenant_id', 'updated_at', 'id'],
      fx_pallets_weighed_on: ['tenant_id', 'weighed_on', 'id'],
    });
  });

  it('adds columns to a table holding rows: optional ones, lines, user and line references', async () => {
    const plan = await migrate(
      [shelf(), crate()],
      [
        shelf(),
        crate({
          note: text({ filterable: true }),
          packed_by: reference(USER),
          contents: lines({ shelf_id: reference('fx_shelf', { required: true }) }),
          fragile: boolean(),
        }),
      ],
      {
        seed: async (trx, tenant) => {
          const shelfId = await insertShelf(trx, tenant);
          await sql`INSERT INTO fx_crates (tenant_id, number, shelf_id, size) VALUES (${tenant}, 'FX-1', ${shelfId}, 's')`.execute(
            trx,
          );
        },
        check: async (trx) => {
          const { rows } =
            await sql`SELECT note, packed_by, contents, fragile, version FROM fx_crates`.execute(
              trx,
            );
          expect(rows).toEqual([
            { note: null, packed_by: null, contents: [], fragile: null, version: 1 },
          ]);
          // The new line reference is checked from now on.
          expect(
            await failure(
              trx,
              sql`UPDATE fx_crates SET contents = ${JSON.stringify([{ shelf_id: '00000000-0000-4000-8000-000000000000' }])}::jsonb`,
            ),
          ).toMatchObject({ code: '23503', column: 'contents.0.shelf_id' });
        },
      },
    );
    expect(plan.changes).toEqual([
      'fx_crates.note: new column (text)',
      'fx_crates.packed_by: new column (uuid)',
      'fx_crates.contents: new column (jsonb NOT NULL)',
      'fx_crates.fragile: new column (boolean)',
      'fx_crates: FOREIGN KEY (tenant_id, packed_by) REFERENCES memberships (tenant_id, user_id)',
      'fx_crates: users unlinked when they leave: packed_by',
      'fx_crates: line references checked: contents[].shelf_id → fx_shelves',
      'fx_crates: index fx_crates_note (tenant_id, note)',
      'fx_crates: index fx_crates_packed_by (tenant_id, packed_by)',
    ]);
  });

  it('widens a check when an enum gains a value or a lifecycle a state', async () => {
    const plan = await migrate(
      [shelf(), crate()],
      [
        shelf(),
        crate(
          { size: enumOf(['s', 'm', 'l'], { required: true }) },
          {
            initial: 'brouillon',
            actions: {
              send: { from: ['brouillon'], to: 'envoye' },
              accept: { from: ['envoye'], to: 'accepte' },
              cancel: { from: ['brouillon', 'envoye'], to: 'annule' },
            },
          },
        ),
      ],
      {
        seed: async (trx, tenant) => {
          await insertShelf(trx, tenant);
        },
        check: async (trx) => {
          const insert = sql`
            INSERT INTO fx_crates (tenant_id, number, shelf_id, size, status)
            SELECT tenant_id, 'FX-L', id, 'l', 'accepte' FROM fx_shelves`;
          expect(await failure(trx, insert)).toBe(null);
        },
      },
    );
    expect(plan.changes).toEqual([
      'fx_crates.status: values added: accepte',
      'fx_crates.size: values added: l',
    ]);
  });

  it('renames a status: rows rewritten with a new version, check replaced, and back down', async () => {
    const renamed = crate(
      {},
      {
        initial: 'brouillon',
        actions: {
          send: { from: ['brouillon'], to: 'emis' },
          cancel: { from: ['brouillon', 'emis'], to: 'annule' },
        },
      },
    );
    const statuses = (trx: Kysely<unknown>) =>
      sql<{ number: string; status: string; version: number }>`
        SELECT number, status, version FROM fx_crates ORDER BY number
      `
        .execute(trx)
        .then((r) => r.rows);
    const plan = await migrate([shelf(), crate()], [shelf(), renamed], {
      renames: { envoye: 'emis' },
      seed: async (trx, tenant) => {
        const shelfId = await insertShelf(trx, tenant);
        // Rows of every tenant are rewritten, whatever the session's tenant (forced RLS).
        await sql`
          INSERT INTO fx_crates (tenant_id, number, shelf_id, size, status)
          VALUES (${tenant}, 'FX-1', ${shelfId}, 's', 'envoye'), (${tenant}, 'FX-2', ${shelfId}, 'm', 'brouillon')
        `.execute(trx);
      },
      check: async (trx) => {
        expect(await statuses(trx)).toEqual([
          { number: 'FX-1', status: 'emis', version: 2 },
          { number: 'FX-2', status: 'brouillon', version: 1 },
        ]);
        expect(
          await failure(trx, sql`UPDATE fx_crates SET status = 'envoye' WHERE number = 'FX-1'`),
        ).toMatchObject({ code: '23514' });
      },
      checkDown: async (trx) => {
        expect(await statuses(trx)).toEqual([
          { number: 'FX-1', status: 'envoye', version: 3 },
          { number: 'FX-2', status: 'brouillon', version: 1 },
        ]);
      },
    });
    expect(plan.changes).toEqual(['fx_crates.status: renamed envoye → emis']);
  });

  it('adds, replaces and drops indexes as fields become filterable, sortable or neither', async () => {
    const before = shelf({ aisle: integer({ filterable: true }), zone: text() });
    const after = defineResource({
      name: 'fx_shelf',
      path: 'fx-shelves',
      module: 'inventory',
      description: 'A fixture.',
      fields: {
        code: text({ required: true, filterable: true, sortable: true }),
        aisle: integer(),
        zone: text({ filterable: true }),
      },
    });
    const plan = await migrate([before], [after]);
    expect(plan.changes).toEqual([
      'fx_shelves: index fx_shelves_aisle (tenant_id, aisle) dropped',
      'fx_shelves: index fx_shelves_code (tenant_id, code, id) replaces (tenant_id, code)',
      'fx_shelves: index fx_shelves_zone (tenant_id, zone)',
    ]);
  });

  it('changes nothing when nothing changed', () => {
    const schema = catalogueSchema([shelf(), crate()]);
    expect(planMigration(schema, catalogueSchema([crate(), shelf()]))).toMatchObject({
      refusals: [],
      steps: [],
      changes: [],
    });
  });
});

describe('planMigration refuses destructive changes', () => {
  it('names each one, and plans nothing', () => {
    const before = catalogueSchema([
      shelf({
        width: integer(),
        depth: text(),
        kind: enumOf(['wall', 'floor']),
        owner: uuid(),
        gone: text(),
        note: text(),
      }),
      crate(),
    ]);
    const after = catalogueSchema([
      shelf({
        width: text(),
        depth: text({ required: true }),
        kind: enumOf(['wall']),
        owner: reference('fx_shelf'),
        note: enumOf(['a', 'b']),
        height: integer({ required: true }),
      }),
    ]);
    const plan = planMigration(before, after, { envoye: 'emis' });
    expect(plan.refusals).toEqual([
      'fx_crates: table removed',
      'fx_shelves.width: type changed from integer to text',
      'fx_shelves.depth: NULL → NOT NULL (rows may hold nulls)',
      'fx_shelves.kind: check narrowed (floor no longer allowed)',
      'fx_shelves.gone: column removed',
      'fx_shelves.note: a check is added (only a, b)',
      'fx_shelves.height: a new required column without a default (the rows already there would have none); declare it optional',
      'fx_shelves: FOREIGN KEY (tenant_id, owner) REFERENCES fx_shelves (tenant_id, id) on existing rows (they may violate it)',
    ]);
    expect(plan.steps).toEqual([]);
  });

  it('does not take a renamed status for another column, nor a rename whose target is not declared', () => {
    const before = catalogueSchema([shelf({ mood: enumOf(['envoye', 'x']) }), crate()]);
    const after = catalogueSchema([
      shelf({ mood: enumOf(['emis', 'x']) }),
      crate(
        {},
        { initial: 'brouillon', actions: { cancel: { from: ['brouillon'], to: 'annule' } } },
      ),
    ]);
    expect(planMigration(before, after, { envoye: 'emis' }).refusals).toEqual([
      'fx_shelves.mood: check narrowed (envoye no longer allowed)',
      'fx_crates.status: check narrowed (envoye no longer allowed)',
    ]);
  });
});
