import { type Kysely, sql } from 'kysely';

/**
 * What PostgreSQL keeps of some tables, one sorted line per object: columns, constraints,
 * indexes, triggers (on them, or calling their functions), their functions' source,
 * policies, row-level security. Two databases with equal lines have the same tables, down to
 * the triggers' code. For tests.
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema, as the migrations see it.
export async function catalogLines(db: Kysely<any>, tables: readonly string[]): Promise<string[]> {
  const { rows } = await sql<{ line: string }>`
    WITH t AS (SELECT c.oid, c.relname FROM pg_class c
                WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY(${tables}::text[]))
    -- The column's rank, not its attnum: a column dropped and added again leaves a hole.
    SELECT format('column %s.%s #%s %s %s %s', t.relname, a.attname,
                  row_number() OVER (PARTITION BY t.oid ORDER BY a.attnum),
                  format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid)) AS line
      FROM t JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_attrdef d ON d.adrelid = t.oid AND d.adnum = a.attnum
    UNION ALL
    SELECT format('constraint %s.%s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
      FROM pg_constraint WHERE conrelid IN (SELECT oid FROM t)
    UNION ALL
    SELECT format('index %s', pg_get_indexdef(indexrelid)) FROM pg_index WHERE indrelid IN (SELECT oid FROM t)
    UNION ALL
    SELECT format('trigger %s', pg_get_triggerdef(oid)) FROM pg_trigger
     WHERE NOT tgisinternal AND (tgrelid IN (SELECT oid FROM t) OR tgfoid IN (
       SELECT p.oid FROM pg_proc p JOIN t ON p.proname LIKE t.relname || '\_%'))
    UNION ALL
    SELECT format('function %s %s', p.proname, p.prosrc) FROM pg_proc p
     WHERE p.pronamespace = 'public'::regnamespace AND EXISTS (SELECT FROM t WHERE p.proname LIKE t.relname || '\_%')
    UNION ALL
    SELECT format('policy %s.%s %s %s', tablename, policyname, qual, with_check) FROM pg_policies
     WHERE tablename = ANY(${tables}::text[])
    UNION ALL
    SELECT format('table %s rls %s forced %s', t.relname, c.relrowsecurity, c.relforcerowsecurity)
      FROM t JOIN pg_class c ON c.oid = t.oid
    UNION ALL
    SELECT format('grant %s %s %s', table_name, grantee, privilege_type)
      FROM information_schema.role_table_grants
     WHERE table_schema = 'public' AND table_name = ANY(${tables}::text[]) AND grantee = 'erp_app'
  `.execute(db);
  return rows.map((r) => r.line).sort();
}
