import { UNTHROTTLED_LIMIT } from '../lib/api-key-setup';
import type { DbCase } from '../lib/db-timing';

interface CaseInput {
  keyId: string;
  tenantId: string;
  prefix: string;
  hash: Buffer;
  holderId: string;
}

// The same statement as authenticate.ts sends (through Kysely: an unnamed statement).
const AUTHENTICATE = 'SELECT * FROM authenticate_api_key_units($1, $2, $3::int, 1)';

// The key lookup inside authenticate_api_key, alone: what verification costs without the rate limit.
const LOOKUP = `
  SELECT a.id, a.tenant_id, t.slug, t.modules, a.holder_id, m.roles, a.scopes,
         coalesce(a.rate_limit_per_minute, $3::int) AS lim, t.rate_limit_per_minute AS tenant_lim, a.last_used_at
    FROM api_keys a
    JOIN tenants t ON t.id = a.tenant_id
    JOIN memberships m ON m.tenant_id = a.tenant_id AND m.user_id = a.holder_id
   WHERE a.prefix = $1 AND a.secret_hash = $2 AND a.revoked_at IS NULL AND a.expires_at > now()`;

const TAKE = 'SELECT * FROM rate_limit_take($1::text[], $2::int[], 60000)';

// The two statements /me runs after authentication, as Kysely writes them (portal: auth/me.ts).
const ME_USER = 'select "id", "email", "name" from "users" where "id" = $1';
const ME_MEMBERSHIPS = `select "t"."id", "t"."slug", "t"."name", "t"."modules", "m"."roles"
  from "memberships" as "m" inner join "tenants" as "t" on "t"."id" = "m"."tenant_id"
  where "m"."user_id" = $1 and "t"."id" = $2 order by "t"."slug"`;

/** The calls whose differences split the key path into lookup, rate limit and /me's own work. */
export function dbCases(k: CaseInput): DbCase[] {
  const unknownHash = Buffer.alloc(32, 7);
  const limits = [UNTHROTTLED_LIMIT, UNTHROTTLED_LIMIT];
  return [
    { name: 'SELECT 1 (round-trip floor)', run: (p) => p.query('SELECT 1') },
    {
      name: 'authenticate_api_key (valid key)',
      run: (p) => p.query(AUTHENTICATE, [k.prefix, k.hash, 600]),
    },
    {
      name: 'authenticate_api_key, named prepared',
      run: (p) =>
        p.query({ name: 'bench-auth', text: AUTHENTICATE, values: [k.prefix, k.hash, 600] }),
    },
    {
      // Same plpgsql call, but no row matches, so it returns before rate_limit_take.
      name: 'authenticate_api_key (unknown key)',
      run: (p) => p.query(AUTHENTICATE, [k.prefix, unknownHash, 600]),
    },
    {
      // Named so PostgreSQL plans it once, as plpgsql does for the statements of a function.
      name: 'key lookup query alone, prepared',
      run: (p) => p.query({ name: 'bench-lookup', text: LOOKUP, values: [k.prefix, k.hash, 600] }),
    },
    {
      name: 'rate_limit_take, key+tenant buckets',
      run: (p) => p.query(TAKE, [[`key:${k.keyId}`, `tenant:${k.tenantId}`], limits]),
    },
    {
      // Two buckets per caller that no other caller touches: the cost without lock waits.
      name: 'rate_limit_take, own buckets/caller',
      run: (p, w) => p.query(TAKE, [[`bench:${w}:a`, `bench:${w}:b`], limits]),
    },
    {
      name: '/me: its 2 queries, in sequence',
      run: async (p) => {
        await p.query(ME_USER, [k.holderId]);
        await p.query(ME_MEMBERSHIPS, [k.holderId, k.tenantId]);
      },
    },
  ];
}
