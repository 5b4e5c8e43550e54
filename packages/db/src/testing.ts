import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { startEmbeddedPostgres } from './embedded';
import { type DatabaseHandle, openDatabase } from './index';
import { migrateToLatest } from './migrate';

interface TestDatabaseServer {
  /** URL of a maintenance database with the right to create databases. */
  adminUrl: string;
  template: string;
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
  if (!adminUrl) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'erp-test-pg-'));
    const server = await startEmbeddedPostgres({ dataDir, persistent: false, ephemeral: true });
    adminUrl = server.url;
    stopServer = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
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
  project.provide('erpTestDatabase', { adminUrl, template });
  return async () => {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
    await stopServer();
  };
}

export interface TestDatabase extends DatabaseHandle {
  url: string;
  name: string;
}

/** A fresh, migrated database for one test file: a clone of the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { adminUrl, template } = inject('erpTestDatabase');
  const name = `${template}_${randomBytes(5).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  const url = withDatabase(adminUrl, name);
  const handle = openDatabase({ url, max: 10 });
  return {
    ...handle,
    url,
    name,
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
