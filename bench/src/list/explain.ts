import pg from 'pg';
import type { ListStatement } from './list-statement';

/**
 * `EXPLAIN (ANALYZE, BUFFERS, SERIALIZE TEXT)` (PostgreSQL 17: the time spent turning the rows into
 * what is sent, which plain ANALYZE leaves out) of the list statement and of its `row_to_json` form, run as the
 * portal runs them: role `erp_app`, the tenant set (row-level security on), each prepared and
 * executed a few times first so the plan is the one a warm connection keeps.
 */
export async function explainList(
  databaseUrl: string,
  tenantId: string,
  statement: ListStatement,
  rowToJson: string,
): Promise<{ text: string; plans: Record<string, string> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SET ROLE erp_app');
    await client.query("SELECT set_config('app.tenant_id', $1, false)", [tenantId]);
    const values = [tenantId, ...statement.values.slice(1)];
    const literals = values.map((v) =>
      client.escapeLiteral(
        Array.isArray(v) ? `{${v.map((x) => JSON.stringify(x)).join(',')}}` : String(v),
      ),
    );
    const plans: Record<string, string> = {};
    for (const [label, name, text] of [
      ['the list statement (columns as text, JSON joined in Node)', statement.name, statement.text],
      ['the same page with row_to_json (before)', 'explain_row_to_json', rowToJson],
    ] as const) {
      for (let i = 0; i < 8; i++) await client.query({ name, text, values });
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, SERIALIZE TEXT) EXECUTE ${name}(${literals.join(', ')})`,
      );
      plans[label] = rows.map((r) => r['QUERY PLAN']).join('\n');
    }
    const text = Object.entries(plans)
      .map(
        ([label, plan]) =>
          `EXPLAIN (ANALYZE, BUFFERS, SERIALIZE TEXT), ${label}, as erp_app:\n${plan}`,
      )
      .join('\n\n');
    return { text, plans };
  } finally {
    await client.end();
  }
}
