/**
 * The compose example's database roles (deploy/postgres/roles.sql), checked without Docker: the
 * same SQL on an empty database of the test PostgreSQL, the migrations run as the owner role
 * (what `migrate` does), then each app's login checked: not a superuser, owner of nothing,
 * subject to row-level security, able to do its work and nothing of the schema's.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '@erp/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PASSWORDS = {
  owner_password: `owner-${randomBytes(8).toString('hex')}`,
  portal_password: `portal-${randomBytes(8).toString('hex')}`,
  worker_password: `worker-${randomBytes(8).toString('hex')}`,
  landing_password: `landing-${randomBytes(8).toString('hex')}`,
};
const name = `erp_deploy_${randomBytes(4).toString('hex')}`;
let adminUrl: string;

/** roles.sql as psql runs it: each `:'variable'` becomes its quoted literal. */
function rolesSql(): string {
  const text = readFileSync(path.join(ROOT, 'deploy/postgres/roles.sql'), 'utf8');
  return text.replace(/:'(\w+)'/g, (_, variable: keyof typeof PASSWORDS) => {
    const value = PASSWORDS[variable];
    if (value === undefined) throw new Error(`roles.sql uses :'${variable}', unset`);
    return `'${value.replace(/'/g, "''")}'`;
  });
}

function urlAs(role: string, password: string | null): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (password !== null) {
    url.username = role;
    url.password = password;
  }
  return url.toString();
}

async function as<T>(
  role: 'admin' | 'owner' | 'portal' | 'worker' | 'landing',
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client(
    role === 'admin'
      ? urlAs('', null)
      : urlAs(`erp_${role}`, PASSWORDS[`${role}_password` as keyof typeof PASSWORDS]),
  );
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const TENANTS = ['0193a1b2-0000-7000-8000-00000000000a', '0193a1b2-0000-7000-8000-00000000000b'];

beforeAll(async () => {
  adminUrl = inject('erpTestDatabase').adminUrl;
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  // The postgres container's first start: the superuser runs roles.sql (init-roles.sh).
  await as('admin', (c) => c.query(rolesSql()));
  // `migrate`: graphile-worker's schema and ours, as the owner role.
  const handle = openDatabase({ url: urlAs('erp_owner', PASSWORDS.owner_password), max: 1 });
  try {
    await migrateToLatest(handle);
  } finally {
    await handle.close();
  }
  // Two tenants and an Idempotency-Key row each (a table under forced row-level security),
  // one fresh and one past 24 h; the owner bypasses the policies, as the migrations need.
  await as('owner', async (c) => {
    for (const [i, id] of TENANTS.entries()) {
      await c.query('INSERT INTO tenants (id, slug, name) VALUES ($1, $2, $2)', [id, `t${i}`]);
      await c.query(
        `INSERT INTO idempotency_keys (tenant_id, principal, key, fingerprint, created_at)
         VALUES ($1, 'user:x', 'fresh', '\\x00', now()), ($1, 'user:x', 'old', '\\x00', now() - interval '25 hours')`,
        [id],
      );
    }
  });
}, 300_000);

afterAll(async () => {
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe('deploy/postgres/roles.sql', () => {
  it('the apps log in as roles that are no superuser, bypass no policy, and own nothing', async () => {
    for (const app of ['portal', 'worker', 'landing'] as const) {
      const { rows } = await as(app, (c) =>
        c.query<{ super: boolean; bypass: boolean; owned: number; db_owner: boolean }>(
          `SELECT r.rolsuper AS super, r.rolbypassrls AS bypass,
             (SELECT count(*)::int FROM pg_class WHERE relowner = r.oid) AS owned,
             (SELECT datdba = r.oid FROM pg_database WHERE datname = current_database()) AS db_owner
           FROM pg_roles r WHERE r.rolname = current_user`,
        ),
      );
      expect(rows[0], app).toEqual({ super: false, bypass: false, owned: 0, db_owner: false });
      // No DDL: the schema belongs to the migrations.
      await expect(
        as(app, (c) => c.query('CREATE TABLE intruder (x int)')),
        app,
      ).rejects.toThrow(/permission denied/);
      await expect(
        as(app, (c) => c.query('TRUNCATE idempotency_keys')),
        app,
      ).rejects.toThrow(/permission denied/);
    }
    // Every table the migrations made is the owner role's.
    const { rows } = await as('admin', (c) =>
      c.query<{ owner: string }>(
        `SELECT DISTINCT pg_get_userbyid(c.relowner) AS owner FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind IN ('r', 'p', 'v', 'S') AND n.nspname IN ('public', 'landing', 'graphile_worker')`,
      ),
    );
    expect(rows.map((r) => r.owner)).toEqual(['erp_owner']);
  });

  it('row-level security applies to the portal’s login and to erp_app: a tenant sees its own rows only', async () => {
    const counts = await as('portal', async (c) => {
      const bare = (await c.query('SELECT count(*)::int AS n FROM idempotency_keys')).rows[0].n;
      await c.query('SET ROLE erp_app');
      await c.query("SELECT set_config('app.tenant_id', $1, false)", [TENANTS[0]]);
      const own = await c.query<{ tenant_id: string }>('SELECT tenant_id FROM idempotency_keys');
      const forged = await c
        .query(
          `INSERT INTO idempotency_keys (tenant_id, principal, key, fingerprint) VALUES ($1, 'user:y', 'k', '\\x00')`,
          [TENANTS[1]],
        )
        .then(
          () => 'inserted',
          (e: { code: string }) => e.code,
        );
      return { bare, own: own.rows.map((r) => r.tenant_id), forged };
    });
    expect(counts.bare).toBe(0);
    expect(counts.own).toEqual([TENANTS[0], TENANTS[0]]);
    // 42501: the policy's WITH CHECK refuses another tenant's row.
    expect(counts.forged).toBe('42501');
  });

  it('the worker purges every tenant’s Idempotency-Key rows past 24 h through its session’s policy, and only with it', async () => {
    const purge = `DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`;
    const [without, withWorker] = await as('worker', async (c) => {
      const a = (await c.query(purge)).rowCount;
      await c.query("SET app.worker = 'on'");
      return [a, (await c.query(purge)).rowCount];
    });
    expect(without).toBe(0);
    expect(withWorker).toBe(2);
  });

  it('the apps reach the job queue and their own work, landing cannot take the tenant role', async () => {
    for (const app of ['portal', 'landing'] as const) {
      const { rows } = await as(app, (c) =>
        c.query<{ id: string }>(
          `SELECT (graphile_worker.add_job('deploy_roles_probe', '{}'::json)).id::text AS id`,
        ),
      );
      expect(rows[0]?.id, app).toBeDefined();
    }
    await expect(as('landing', (c) => c.query('SET ROLE erp_app'))).rejects.toThrow(
      /permission denied/,
    );
    // The worker starts graphile-worker, which checks its schema: up to date, it changes nothing.
    const require = createRequire(path.join(ROOT, 'packages/db/package.json'));
    // graphile-worker is @erp/db's dependency, not this package's: loaded from there.
    const { runMigrations, Logger } = (await import(require.resolve('graphile-worker'))) as {
      runMigrations(options: { pgPool: pg.Pool; logger: unknown }): Promise<void>;
      Logger: new (factory: () => () => void) => unknown;
    };
    const pool = new pg.Pool({
      connectionString: urlAs('erp_worker', PASSWORDS.worker_password),
      max: 1,
    });
    pool.on('error', () => {});
    try {
      await runMigrations({ pgPool: pool, logger: new Logger(() => () => {}) });
      const jobs = await pool.query('SELECT count(*)::int AS n FROM graphile_worker.jobs');
      expect(jobs.rows[0].n).toBe(2);
    } finally {
      await pool.end();
    }
  });
});
