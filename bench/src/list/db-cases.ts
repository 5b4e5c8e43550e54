import type pg from 'pg';
import { hashApiKey, parseApiKey } from '../../../apps/portal/src/auth/api-key-format';
import { RAW_TEXT } from '../../../apps/portal/src/resources/read';
import type { DbCase } from '../lib/db-timing';
import type { ListStatement } from './list-statement';

// As authenticate.ts sends it: a named statement.
const AUTHENTICATE = 'SELECT * FROM authenticate_api_key_units($1, $2, $3::int, 1)';

/**
 * The list path's database calls, each alone, so the HTTP differences can be read against
 * what PostgreSQL spends on each layer: the statement, the row-level-security transaction
 * around it (and around nothing), and the key check with and without its rate limit.
 */
/** What the portal's tenant database does for multi-statement work (idempotent writes). */
async function inTransaction(
  pool: pg.Pool,
  tenantId: string,
  work: (client: pg.PoolClient) => Promise<unknown>,
) {
  const client = await pool.connect();
  try {
    await client.query(
      `BEGIN; SELECT set_config('app.tenant_id', '${tenantId}', true), set_config('role', 'erp_app', true)`,
    );
    await work(client);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

export function listDbCases(input: {
  statement: ListStatement;
  /** The same page with its JSON built by PostgreSQL (`rowToJsonForm`). */
  rowToJson: string;
  tenantId: string;
  apiKey: string;
  hashSecret: string;
}): DbCase[] {
  const { statement, tenantId } = input;
  // As the portal sends it: columns as raw text in arrays (the Node side of the JSON is the portal's).
  const query = {
    name: statement.name,
    text: statement.text,
    values: statement.values,
    rowMode: 'array' as const,
    types: RAW_TEXT,
  };
  const parts = parseApiKey(input.apiKey);
  if (!parts) throw new Error('the bench key does not parse');
  const hash = hashApiKey(parts.key, Buffer.from(input.hashSecret));
  const unknownHash = Buffer.alloc(hash.length, 7);
  const before = { name: 'list_row_to_json', text: input.rowToJson, values: statement.values };
  return [
    { name: 'list statement, named (as the bare server)', run: (p) => p.query(query) },
    {
      name: 'the same page, JSON by row_to_json (before)',
      run: (p) => p.query(before),
    },
    {
      name: 'list statement in a tenant transaction (3 round trips)',
      run: (p) => inTransaction(p, tenantId, (c) => c.query(query)),
    },
    {
      name: 'tenant transaction around SELECT 1',
      run: (p) => inTransaction(p, tenantId, (c) => c.query('SELECT 1')),
    },
    {
      name: 'authenticate_api_key (the key)',
      run: (p) =>
        p.query({
          name: 'authenticate_api_key_units',
          text: AUTHENTICATE,
          values: [parts.prefix, hash, 600],
        }),
    },
    {
      // Same plpgsql call, no row matches: returns before the rate limit.
      name: 'authenticate_api_key (unknown key)',
      run: (p) => p.query(AUTHENTICATE, [parts.prefix, unknownHash, 600]),
    },
  ];
}
