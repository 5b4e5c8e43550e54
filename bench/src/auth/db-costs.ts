import { createHmac } from 'node:crypto';
import pg from 'pg';
import type { BenchKey } from '../lib/api-key-setup';
import { type DbCost, type DbTimingSettings, measureDbCases } from '../lib/db-timing';
import { dbCases } from './db-cases';

export interface DbCostSettings extends DbTimingSettings {
  hashSecret: string;
}

/**
 * Times each call of the key path straight against PostgreSQL (no HTTP): alone, then with
 * `concurrency` callers, so the rate limiter's row locks show up when they serialise callers.
 */
export async function measureDbCosts(key: BenchKey, s: DbCostSettings): Promise<DbCost[]> {
  const client = new pg.Client({ connectionString: s.databaseUrl });
  await client.connect();
  const { rows } = await client
    .query<{ holder_id: string }>('SELECT holder_id FROM api_keys WHERE id = $1', [key.keyId])
    .finally(() => client.end());
  // The portal hashes with the secret's UTF-8 bytes (Buffer.from(env value)): so do we.
  const hash = createHmac('sha256', Buffer.from(s.hashSecret)).update(key.key).digest();
  return measureDbCases(dbCases({ ...key, hash, holderId: rows[0]!.holder_id }), s);
}
