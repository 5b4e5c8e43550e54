/**
 * The volatile functions a statement calls, its INSERTs' column defaults included (SPEC §19):
 * Citus routes a write to one node in one step only when it calls none (it evaluates stable
 * ones, `now()`, on the coordinator). Read with PostgreSQL's parser (libpg-query) and the
 * catalogue's `provolatile`; used by the engine's tests on the statements it really sends.
 */
import { loadModule, parseSync } from 'libpg-query';
import type pg from 'pg';

type Node = Record<string, unknown>;

export async function volatileCalls(pool: pg.Pool, text: string): Promise<string[]> {
  await loadModule();
  const tree = parseSync(text) as { stmts: { stmt: Node }[] };
  const calls = new Set<string>();
  const inserts: { table: string; columns: string[] }[] = [];
  walk(tree, (n) => {
    const call = n.FuncCall as Node | undefined;
    if (call) calls.add(lastName(call.funcname));
    const insert = n.InsertStmt as Node | undefined;
    if (insert)
      inserts.push({
        table: String((insert.relation as Node).relname),
        columns: ((insert.cols as Node[] | undefined) ?? []).map((c) =>
          String((c.ResTarget as Node).name),
        ),
      });
  });
  // A column an INSERT leaves out takes its default: the functions that default calls count.
  for (const { table, columns } of inserts) {
    const { rows } = await pool.query<{ name: string; expression: string }>(
      `SELECT a.attname AS name, pg_get_expr(d.adbin, d.adrelid) AS expression
       FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
       WHERE d.adrelid = $1::regclass AND NOT a.attisdropped AND a.attgenerated = ''`,
      [table],
    );
    for (const d of rows.filter((r) => !columns.includes(r.name)))
      walk(parseSync(`SELECT ${d.expression}`), (n) => {
        const call = n.FuncCall as Node | undefined;
        if (call) calls.add(`${lastName(call.funcname)} (default of ${table}.${d.name})`);
      });
  }
  const names = [...calls];
  const { rows } = await pool.query<{ name: string }>(
    `SELECT DISTINCT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname IN ('public', 'pg_catalog') AND p.provolatile = 'v' AND p.proname = ANY ($1)`,
    [names.map((c) => c.split(' ')[0])],
  );
  const volatile = new Set(rows.map((r) => r.name));
  return names.filter((c) => volatile.has(c.split(' ')[0]!)).sort();
}

function lastName(names: unknown): string {
  const list = (names as Node[] | undefined) ?? [];
  return String(((list[list.length - 1]?.String as Node | undefined)?.sval as string) ?? '');
}

function walk(node: unknown, each: (n: Node) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, each);
    return;
  }
  if (!node || typeof node !== 'object') return;
  each(node as Node);
  for (const value of Object.values(node as Node)) walk(value, each);
}
