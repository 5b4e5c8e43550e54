import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from './migrations/index';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

const sso = migrations['2026-11-24-0016-sso']!;

describe('migration 2026-11-24-0016-sso', () => {
  it('moves every tenants.sso_authorize_url into an enforced sso_settings row, and back down', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on the schema of its time.
    const db = tdb.db as unknown as Kysely<any>;
    await sso.down!(db);
    await sql`
      INSERT INTO tenants (slug, name, sso_authorize_url) VALUES
        ('legacy-sso', 'Legacy', 'https://idp.example/authorize?client=a'),
        ('no-sso', 'Plain', NULL)
    `.execute(db);
    await sso.up(db);

    const rows = await sql<{ slug: string; legacy_authorize_url: string; enforced: boolean }>`
      SELECT t.slug, s.legacy_authorize_url, s.enforced, s.issuer
      FROM sso_settings s JOIN tenants t ON t.id = s.tenant_id
    `.execute(db);
    expect(rows.rows).toEqual([
      {
        slug: 'legacy-sso',
        legacy_authorize_url: 'https://idp.example/authorize?client=a',
        enforced: true,
        issuer: null,
      },
    ]);
    const column = await sql`
      SELECT 1 FROM information_schema.columns
      WHERE table_name = 'tenants' AND column_name = 'sso_authorize_url'
    `.execute(db);
    expect(column.rows).toEqual([]);

    await sso.down!(db);
    const back = await sql<{ slug: string; sso_authorize_url: string | null }>`
      SELECT slug, sso_authorize_url FROM tenants WHERE slug IN ('legacy-sso', 'no-sso') ORDER BY slug
    `.execute(db);
    expect(back.rows).toEqual([
      { slug: 'legacy-sso', sso_authorize_url: 'https://idp.example/authorize?client=a' },
      { slug: 'no-sso', sso_authorize_url: null },
    ]);
    await sso.up(db);
  });
});
