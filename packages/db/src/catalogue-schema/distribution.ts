/**
 * How the schema would be laid out on Citus (SPEC §19, docs/scale-out.md): every table of the
 * public schema is **distributed** by `tenant_id` (the default for a table that has one,
 * NOT NULL), a **reference** table (small, global, replicated to every node: what distributed
 * tables point at without a tenant) or **local** to the coordinator (global state read before a
 * tenant is known, or the platform's own). Read from a migrated database, so that the check and
 * the script cover what the migrations really made, hand-written tables included.
 */
import type pg from 'pg';

/**
 * Global tables every node needs: distributed tables refer to them, or (the outbox's wake-up
 * row) a trigger on a distributed table reads them on the node of the row's shard.
 */
export const REFERENCE_TABLES = ['tenants', 'plans', 'users', 'webhook_outbox_wake'] as const;

/**
 * Coordinator-only tables, and why: each is read before a tenant is known (a key's prefix, a
 * token's hash, a login's address) or is the platform's own state, never joined with a tenant's
 * business rows.
 */
export const LOCAL_TABLES: Record<string, string> = {
  kysely_migration: 'the migrations applied',
  kysely_migration_lock: 'the migrations’ lock',
  login_attempts: 'the login throttle, by address before any tenant',
  platform_leads: 'the landing’s leads, the platform’s own',
  portal_access: 'Settings → Portal access, platform-wide',
  rate_limit_buckets: 'the exact rate limit, by key before the tenant is bound',
  worker_heartbeats: 'the workers’ liveness',
  webhook_claims: 'the outbox drain’s claims, across tenants',
  tenant_positions: 'read-your-writes positions, read before a tenant’s shard is chosen',
  refresh_tokens: 'sessions, found by their hash before any tenant',
  password_tokens: 'password links, found by their hash; a platform user’s has no tenant',
  api_keys: 'found by their prefix before the tenant is known (UNIQUE (prefix) is global)',
  invitations: 'found by their token’s hash before the tenant is known',
  sso_login_states: 'found by their state before the tenant is known',
  subscriptions: 'the payment provider’s, found by its own id (UNIQUE (provider, …))',
  audit_log: 'platform events without a tenant too (tenant_id nullable)',
};

/**
 * Why each trigger left on a distributed table is a trigger and not a constraint, by its
 * function's name (docs/scale-out.md). Each is confined to its row's tenant (`confinement.ts`
 * checks it from the migrated database), so Citus runs it on the node of the row's shard
 * (`citus.enable_unsafe_triggers`) and every statement it runs stays on that node.
 */
export const TRIGGER_REASONS: { function: RegExp; why: string }[] = [
  {
    function: /_release_member$/,
    why: 'a member removed from a tenant is unset on that tenant’s records (and their version moves): Citus refuses ON DELETE SET NULL on a foreign key holding the distribution column, even PostgreSQL 15’s SET NULL (column)',
  },
  {
    function: /_line_references$/,
    why: 'a line’s reference into another table (a product, a tax) checked on write: no foreign key reaches into a JSONB array',
  },
  {
    function: /_line_referenced$/,
    why: 'the referenced row’s deletion refused while a line still names it: the other side of the same check',
  },
  {
    function: /^journal_entries_post$/,
    why: 'posting writes the ledger lines and the month’s balances in the entry’s own statement, and refuses an account or a closed period: a constraint writes nothing',
  },
  {
    function: /^journal_entries_posted_final$/,
    why: 'a posted entry may only move to cancelled: the rule compares the old row with the new, which no CHECK sees',
  },
  {
    function: /^payment_allocations_apply$/,
    why: 'an allocation moves the payment’s and the documents’ open amounts in its own statement',
  },
  {
    function: /^webhook_cursor_(open|close)$/,
    why: 'a tenant’s first subscription opens its outbox cursor at the counter’s value under the numbering lock, its last one closes it',
  },
  {
    function: /^webhook_outbox_notify$/,
    why: 'reads no tenant’s row: the wake-up row (a reference table) and a NOTIFY on the node that wrote the event',
  },
];

export interface TableKeys {
  table: string;
  tenantColumn: boolean;
  tenantNullable: boolean;
  primaryKey: string[];
  uniques: { name: string; columns: string[] }[];
  foreignKeys: { name: string; columns: string[]; table: string; referenced: string[] }[];
  triggers: string[];
}

/** Every table of the public schema with its keys, references and triggers, as PostgreSQL has them. */
export async function readTables(pool: pg.Pool): Promise<TableKeys[]> {
  const columns = (array: string, relation: string) =>
    `(SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(${array}) WITH ORDINALITY k(attnum, ord)
        JOIN pg_attribute a ON a.attrelid = ${relation} AND a.attnum = k.attnum)`;
  const { rows } = await pool.query<TableKeys>(`
    SELECT c.relname AS table,
      EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id'
              AND NOT a.attisdropped) AS "tenantColumn",
      coalesce((SELECT NOT a.attnotnull FROM pg_attribute a WHERE a.attrelid = c.oid
                AND a.attname = 'tenant_id'), false) AS "tenantNullable",
      coalesce((SELECT ${columns('p.conkey', 'p.conrelid')} FROM pg_constraint p
                 WHERE p.conrelid = c.oid AND p.contype = 'p'), '{}') AS "primaryKey",
      coalesce((SELECT json_agg(json_build_object('name', u.conname, 'columns',
                  ${columns('u.conkey', 'u.conrelid')}) ORDER BY u.conname)
                FROM pg_constraint u WHERE u.conrelid = c.oid AND u.contype = 'u'), '[]') AS uniques,
      coalesce((SELECT json_agg(json_build_object('name', f.conname, 'table', r.relname,
                  'columns', ${columns('f.conkey', 'f.conrelid')},
                  'referenced', ${columns('f.confkey', 'f.confrelid')}) ORDER BY f.conname)
                FROM pg_constraint f JOIN pg_class r ON r.oid = f.confrelid
               WHERE f.conrelid = c.oid AND f.contype = 'f'), '[]') AS "foreignKeys",
      coalesce((SELECT array_agg(t.tgname::text ORDER BY t.tgname) FROM pg_trigger t
                 WHERE t.tgrelid = c.oid AND NOT t.tgisinternal), '{}') AS triggers
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
    ORDER BY c.relname`);
  return rows;
}

export type Placement = 'distributed' | 'reference' | 'local';

export function placementOf(table: TableKeys): Placement {
  if ((REFERENCE_TABLES as readonly string[]).includes(table.table)) return 'reference';
  if (table.table in LOCAL_TABLES) return 'local';
  return 'distributed';
}

/**
 * What keeps a distributed table from being distributed by `tenant_id` as it is: the tenant
 * missing or nullable; a primary key or a unique constraint without it first; a reference to
 * another distributed table that does not match `tenant_id` with `tenant_id` in the same
 * position (a reference to a reference table needs no tenant). One line each. (Triggers:
 * `TRIGGER_REASONS` and `confinement.ts`.)
 */
export function distributionGaps(tables: readonly TableKeys[]): string[] {
  const placement = new Map(tables.map((t) => [t.table, placementOf(t)]));
  const gaps: string[] = [];
  for (const t of tables) {
    if (placement.get(t.table) !== 'distributed') continue;
    if (!t.tenantColumn || t.tenantNullable) {
      gaps.push(`${t.table}: no NOT NULL tenant_id`);
      continue;
    }
    if (t.primaryKey[0] !== 'tenant_id')
      gaps.push(`${t.table}: primary key (${t.primaryKey.join(', ')})`);
    for (const u of t.uniques)
      if (u.columns[0] !== 'tenant_id') gaps.push(`${t.table}: unique (${u.columns.join(', ')})`);
    for (const f of t.foreignKeys) {
      const target = placement.get(f.table);
      if (target === 'reference') continue;
      const at = f.columns.indexOf('tenant_id');
      if (target !== 'distributed' || at < 0 || f.referenced[at] !== 'tenant_id')
        gaps.push(
          `${t.table}: reference (${f.columns.join(', ')}) → ${f.table} (${f.referenced.join(', ')})`,
        );
    }
  }
  return gaps;
}

/**
 * The Citus script (run once, on the coordinator, after the migrations): the reference tables,
 * then every distributed table by `tenant_id`, all co-located so a tenant's rows of every table
 * share a node and its joins and transactions stay on it. Local tables stay as they are.
 */
export function citusScript(tables: readonly TableKeys[]): string {
  const reference = tables.filter((t) => placementOf(t) === 'reference');
  const distributed = tables.filter((t) => placementOf(t) === 'distributed');
  const anchor = distributed[0]?.table;
  return [
    '-- Generated by `pnpm --filter @erp/db citus-script` from a migrated database (SPEC §19).',
    "SET citus.propagate_set_commands = 'local';",
    '-- The triggers left on distributed tables stay within their row’s tenant (TRIGGER_REASONS):',
    '-- Citus runs them on the node of the row’s shard. Also in postgresql.conf, for later migrations.',
    'SET citus.enable_unsafe_triggers = on;',
    ...reference.map((t) => `SELECT create_reference_table('${t.table}');`),
    ...distributed.map((t, i) =>
      i === 0
        ? `SELECT create_distributed_table('${t.table}', 'tenant_id');`
        : `SELECT create_distributed_table('${t.table}', 'tenant_id', colocate_with => '${anchor}');`,
    ),
    ...tables
      .filter((t) => placementOf(t) === 'local')
      .map((t) => `-- local to the coordinator: ${t.table} (${LOCAL_TABLES[t.table]})`),
    '',
  ].join('\n');
}
