import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { startEmbeddedPostgres } from './embedded';
import { type DatabaseHandle, openDatabase } from './index';
import { migrateToLatest } from './migrate';
import { startStandby } from './standby';

interface TestDatabaseServer {
  /** URL of a maintenance database with the right to create databases. */
  adminUrl: string;
  template: string;
  /**
   * With ERP_TEST_REPLICA=1: the URL of the same maintenance database on a hot standby of the
   * test server (SPEC §19); each test database is on it under the same name once replayed.
   */
  replicaUrl?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    erpTestDatabase: TestDatabaseServer;
  }
}

/**
 * Vitest global setup: a real PostgreSQL (DATABASE_URL, else an embedded throw-away one),
 * with a template database migrated once. Test files clone it with `createTestDatabase`.
 */
export async function setupTestDatabaseServer(project: {
  provide(key: 'erpTestDatabase', value: TestDatabaseServer): void;
}): Promise<() => Promise<void>> {
  const runId = randomBytes(4).toString('hex');
  let adminUrl = process.env.DATABASE_URL;
  let stopServer = async () => {};
  let replicaUrl: string | undefined;
  if (!adminUrl) {
    const root = await mkdtemp(path.join(tmpdir(), 'erp-test-pg-'));
    // PostgreSQL runs as the `postgres` user when the tests run as root: it must reach its folders.
    await chmod(root, 0o755);
    const dataDir = path.join(root, 'primary');
    const server = await startEmbeddedPostgres({ dataDir, persistent: true, ephemeral: true });
    adminUrl = server.url;
    const standby =
      process.env.ERP_TEST_REPLICA === '1'
        ? await startStandby({
            primaryUrl: server.url,
            primaryDataDir: dataDir,
            dataDir: path.join(root, 'standby'),
            slot: `test_${runId}`,
          })
        : undefined;
    replicaUrl = standby?.urlFor('postgres');
    stopServer = async () => {
      await standby?.remove();
      await server.stop();
      await rm(root, { recursive: true, force: true });
    };
  }
  const template = `erp_tpl_${runId}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${template}`);
  const handle = openDatabase({ url: withDatabase(adminUrl, template), max: 1 });
  try {
    await migrateToLatest(handle);
  } finally {
    await handle.close();
  }
  project.provide('erpTestDatabase', { adminUrl, template, ...(replicaUrl ? { replicaUrl } : {}) });
  return async () => {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
    await stopServer();
  };
}

export interface TestDatabase extends DatabaseHandle {
  url: string;
  name: string;
  /** The same database on the test server's hot standby (ERP_TEST_REPLICA=1), else undefined. */
  replicaUrl?: string;
}

/** A fresh, migrated database for one test file: a clone of the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { adminUrl, template, replicaUrl } = inject('erpTestDatabase');
  const name = `${template}_${randomBytes(5).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  const url = withDatabase(adminUrl, name);
  const handle = openDatabase({ url, max: 10 });
  return {
    ...handle,
    url,
    name,
    ...(replicaUrl ? { replicaUrl: withDatabase(replicaUrl, name) } : {}),
    close: async () => {
      await handle.close();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Runs `work` in a transaction of `db` that is then rolled back, and returns its result. */
export async function rollingBack<T>(
  // biome-ignore lint/suspicious/noExplicitAny: any schema, as the migrations see it.
  db: Kysely<any>,
  work: (trx: Kysely<unknown>) => Promise<T>,
): Promise<T> {
  const rollback = new Error('rollback');
  let result: T | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      result = await work(trx as unknown as Kysely<unknown>);
      throw rollback;
    })
    .catch((e: unknown) => {
      if (e !== rollback) throw e;
    });
  return result as T;
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
