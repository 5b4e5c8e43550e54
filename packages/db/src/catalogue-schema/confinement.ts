/**
 * Whether a trigger on a distributed table stays within its own tenant's rows (SPEC §19,
 * docs/scale-out.md). Citus runs such a trigger on the node of the row's shard
 * (`citus.enable_unsafe_triggers`): every statement it runs must name the row's tenant, so that
 * it is routed to that same node and reads or writes nothing of another tenant; it may read the
 * reference tables (present on every node) and never a table local to the coordinator.
 *
 * Read with PostgreSQL's own parser (libpg-query: the PL/pgSQL function and each SQL statement
 * in it), from the functions as the migrated database has them, following the calls into our own
 * functions and `EXECUTE format(…)`'s dynamic statements. A relation is **pinned** when a
 * statement equates its `tenant_id` with the row's tenant (`NEW.tenant_id`, `OLD.tenant_id`, a
 * variable or parameter holding it) or with a pinned relation's `tenant_id`; an INSERT's
 * `tenant_id` must be one of those. Anything else is named.
 */
import { loadModule, parsePlPgSQLSync, parseSync } from 'libpg-query';
import type pg from 'pg';

export interface TriggerSource {
  table: string;
  name: string;
  function: string;
  level: 'row' | 'statement';
  /** A statement-level trigger's transition tables (their rows may be any tenant's). */
  transitionTables: string[];
}

export interface FunctionSource {
  name: string;
  language: string;
  /** Argument names, in order (empty strings for unnamed ones). */
  args: string[];
  /** `CREATE FUNCTION …` as pg_get_functiondef gives it (PL/pgSQL is parsed from it). */
  definition: string;
  /** The body (an SQL function's statements). */
  body: string;
}

export type TablePlacement = 'distributed' | 'reference' | 'local';

/** The triggers on the public schema's tables and the PL/pgSQL and SQL functions they may call. */
export async function readTriggerSources(
  pool: pg.Pool,
): Promise<{ triggers: TriggerSource[]; functions: Map<string, FunctionSource> }> {
  const triggers = await pool.query<TriggerSource>(`
    SELECT c.relname AS table, t.tgname AS name, p.proname AS function,
      CASE WHEN t.tgtype & 1 = 1 THEN 'row' ELSE 'statement' END AS level,
      array_remove(ARRAY[t.tgoldtable::text, t.tgnewtable::text], NULL) AS "transitionTables"
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND NOT t.tgisinternal ORDER BY c.relname, t.tgname`);
  const functions = await pool.query<FunctionSource>(`
    SELECT p.proname AS name, l.lanname AS language,
      coalesce(p.proargnames[1:p.pronargs], array_fill(''::text, ARRAY[p.pronargs])) AS args,
      pg_get_functiondef(p.oid) AS definition, p.prosrc AS body
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
    WHERE n.nspname = 'public' AND l.lanname IN ('plpgsql', 'sql') AND p.prokind = 'f'`);
  return {
    triggers: triggers.rows,
    functions: new Map(functions.rows.map((f) => [f.name, f])),
  };
}

/** libpg-query's WebAssembly module, loaded once before the first analysis. */
export const loadParser: () => Promise<void> = loadModule;

/** Stands for the relation an `EXECUTE format('… %I …')` names: assumed distributed. */
const DYNAMIC_RELATION = 'erp_dynamic_relation';

// libpg-query's parse trees, walked generically.
type Node = Record<string, unknown>;

/**
 * What keeps `trigger` from staying within its own tenant's rows: one line per statement that
 * reads or writes a distributed table without the row's tenant, reads a table local to the
 * coordinator, or cannot be read (dynamic SQL not built by `format` with `%I`).
 */
export function triggerConfinement(
  trigger: TriggerSource,
  functions: ReadonlyMap<string, FunctionSource>,
  placementOf: (table: string) => TablePlacement | undefined,
): string[] {
  const problems = new Set<string>();
  const seen = new Set<string>();
  const fn = functions.get(trigger.function);
  if (!fn) return [`${trigger.name}: its function ${trigger.function} is not PL/pgSQL or SQL`];
  analyseFunction(fn, new Set<number>(), trigger.level === 'row', trigger.transitionTables);
  return [...problems];

  function analyseFunction(
    f: FunctionSource,
    tenantArgs: ReadonlySet<number>,
    rowTrigger: boolean,
    transition: readonly string[],
  ): void {
    const key = `${f.name}(${[...tenantArgs].sort().join(',')})`;
    if (seen.has(key)) return;
    seen.add(key);
    const scope: FunctionScope = {
      where: f.name,
      rowTrigger,
      transition: new Set(transition),
      tenantNames: new Set([...tenantArgs].map((i) => f.args[i]?.toLowerCase() ?? '')),
      tenantParams: new Set([...tenantArgs].map((i) => i + 1)),
    };
    scope.tenantNames.delete('');
    if (f.language === 'sql') {
      for (const s of parseStatements(f.body, scope))
        analyseStatement(s, scope, scope.tenantParams);
      return;
    }
    const tree = parsePlPgSQLSync(f.definition) as { plpgsql_funcs: Node[] };
    const body = (tree.plpgsql_funcs[0] as Node).PLpgSQL_function as Node;
    for (const datum of (body.datums as Node[]) ?? []) {
      const variable = datum.PLpgSQL_var as Node | undefined;
      const initial = (variable?.default_val as Node | undefined)?.PLpgSQL_expr as Node | undefined;
      if (variable && initial && isTenantExpression(expressionOf(String(initial.query)), scope))
        scope.tenantNames.add(String(variable.refname).toLowerCase());
    }
    walkPlPgSQL(body.action, scope);
  }

  function walkPlPgSQL(node: unknown, scope: FunctionScope): void {
    if (Array.isArray(node)) {
      for (const item of node) walkPlPgSQL(item, scope);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    const dynamic = (n.PLpgSQL_stmt_dynexecute ?? n.PLpgSQL_stmt_dynfors) as Node | undefined;
    const expr = n.PLpgSQL_expr as Node | undefined;
    if (dynamic) analyseDynamic(dynamic, scope);
    else if (expr) analyseExpression(String(expr.query), Number(expr.parseMode ?? 0), scope);
    else for (const value of Object.values(n)) walkPlPgSQL(value, scope);
  }

  function analyseExpression(query: string, parseMode: number, scope: FunctionScope): void {
    if (parseMode >= 3 && parseMode <= 5) {
      // `target := expression`: the target holds the tenant when the expression does.
      const at = query.indexOf(':=');
      const target = query.slice(0, at).trim().toLowerCase();
      const value = expressionOf(query.slice(at + 2));
      if (isTenantExpression(value, scope)) scope.tenantNames.add(target);
      analyseStatement(parseOne(`SELECT ${query.slice(at + 2)}`, scope), scope, new Set());
      return;
    }
    const text = parseMode === 0 ? query : `SELECT ${query}`;
    for (const s of parseStatements(text, scope)) analyseStatement(s, scope, new Set());
  }

  /** `EXECUTE format('…%I…', …) USING a, b`: the format string with `%I` as a distributed table. */
  function analyseDynamic(statement: Node, scope: FunctionScope): void {
    const query = String(((statement.query as Node).PLpgSQL_expr as Node).query);
    const call = (firstTarget(parseOne(`SELECT ${query}`, scope)) ?? {}) as Node;
    const format = call.FuncCall as Node | undefined;
    const template = (
      ((format?.args as Node[] | undefined)?.[0]?.A_Const as Node | undefined)?.sval as
        | Node
        | undefined
    )?.sval;
    if (!format || nameOf(format.funcname) !== 'format' || typeof template !== 'string') {
      problems.add(`${scope.where}: EXECUTE of a statement not built by format('…')`);
      return;
    }
    if (/%[^I%]/.test(template)) {
      problems.add(`${scope.where}: EXECUTE format() with other placeholders than %I`);
      return;
    }
    const using = ((statement.params as Node[] | undefined) ?? []).map((p) =>
      expressionOf(String((p.PLpgSQL_expr as Node).query)),
    );
    const tenantParams = new Set<number>();
    using.forEach((p, i) => {
      if (isTenantExpression(p, scope)) tenantParams.add(i + 1);
    });
    const text = template.replaceAll('%%', '%').replaceAll('%I', DYNAMIC_RELATION);
    for (const s of parseStatements(text, scope)) analyseStatement(s, scope, tenantParams);
  }

  function parseStatements(text: string, scope: FunctionScope): Node[] {
    try {
      return (parseSync(text) as { stmts: { stmt: Node }[] }).stmts.map((s) => s.stmt);
    } catch (e) {
      problems.add(`${scope.where}: cannot parse ${JSON.stringify(text)}: ${String(e)}`);
      return [];
    }
  }

  function parseOne(text: string, scope: FunctionScope): Node {
    return parseStatements(text, scope)[0] ?? {};
  }

  function expressionOf(text: string): unknown {
    try {
      return firstTarget(
        (parseSync(`SELECT ${text}`) as { stmts: { stmt: Node }[] }).stmts[0]!.stmt,
      );
    } catch {
      return undefined;
    }
  }

  /** Is this expression the row's tenant (a cast of it included)? */
  function isTenantExpression(
    node: unknown,
    scope: FunctionScope,
    params: ReadonlySet<number> = scope.tenantParams,
  ): boolean {
    const n = node as Node | undefined;
    if (!n) return false;
    if (n.TypeCast) return isTenantExpression((n.TypeCast as Node).arg, scope, params);
    if (n.ParamRef) return params.has(Number((n.ParamRef as Node).number));
    const fields = columnFields(n);
    if (!fields) return false;
    if (
      fields.length === 2 &&
      fields[1] === 'tenant_id' &&
      (fields[0] === 'new' || fields[0] === 'old')
    )
      return scope.rowTrigger;
    return fields.length === 1 && scope.tenantNames.has(fields[0]!);
  }

  function analyseStatement(
    statement: Node,
    scope: FunctionScope,
    params: ReadonlySet<number>,
  ): void {
    const ctes = new Set<string>();
    collect(statement, (n) => {
      const cte = n.CommonTableExpr as Node | undefined;
      if (cte) ctes.add(String(cte.ctename));
    });
    // The relations read or written, with the statement level each belongs to.
    const relations: Relation[] = [];
    const equalities: { left: unknown; right: unknown; level: Relation[] }[] = [];
    const links: [Relation[], Relation[]][] = [];
    const inserts: { target: Relation; columns: string[]; source: Node | undefined }[] = [];
    visit(statement, []);

    const isTable = (r: Relation) => !ctes.has(r.name) && !scope.transition.has(r.name);
    const ofColumn = (node: unknown, level: Relation[]): Relation[] => {
      const fields = columnFields(node as Node);
      if (fields?.[fields.length - 1] !== 'tenant_id') return [];
      if (fields.length === 1) {
        const tables = level.filter(isTable);
        return tables.length === 1 ? tables : [];
      }
      return relations.filter((r) => (r.alias ?? r.name) === fields[fields.length - 2]);
    };
    const pinned = new Set<Relation>();
    for (let changed = true; changed; ) {
      changed = false;
      const pin = (rs: Relation[]) => {
        for (const r of rs)
          if (!pinned.has(r)) {
            pinned.add(r);
            changed = true;
          }
      };
      for (const { left, right, level } of equalities) {
        const [l, r] = [ofColumn(left, level), ofColumn(right, level)];
        if (isTenantExpression(right, scope, params) || r.some((x) => pinned.has(x))) pin(l);
        if (isTenantExpression(left, scope, params) || l.some((x) => pinned.has(x))) pin(r);
      }
      for (const [a, b] of links) {
        if (a.some((x) => pinned.has(x))) pin(b);
        if (b.some((x) => pinned.has(x))) pin(a);
      }
    }
    for (const r of relations) {
      if (!isTable(r) || r.inserted) continue;
      const placement = r.name === DYNAMIC_RELATION ? 'distributed' : placementOf(r.name);
      if (placement === 'local')
        problems.add(`${scope.where}: reads ${r.name}, local to the coordinator`);
      else if (placement === undefined) problems.add(`${scope.where}: reads ${r.name}, unknown`);
      else if (placement === 'distributed' && !pinned.has(r))
        problems.add(`${scope.where}: reads or writes ${r.name} without the row's tenant`);
    }
    for (const { target, columns, source } of inserts) {
      const placement = target.name === DYNAMIC_RELATION ? 'distributed' : placementOf(target.name);
      if (placement === 'reference') continue;
      if (placement !== 'distributed') {
        problems.add(`${scope.where}: writes ${target.name}, ${placement ?? 'unknown'}`);
        continue;
      }
      const at = columns.indexOf('tenant_id');
      const select = (source?.SelectStmt ?? {}) as Node;
      const rows = (select.valuesLists as Node[] | undefined)?.map(
        (l) => ((l.List as Node).items as unknown[])[at],
      ) ?? [((select.targetList as Node[] | undefined)?.[at]?.ResTarget as Node | undefined)?.val];
      const level = relations.filter((r) => r.level === select);
      const ok =
        at >= 0 &&
        rows.every(
          (v) =>
            isTenantExpression(v, scope, params) || ofColumn(v, level).some((x) => pinned.has(x)),
        );
      if (!ok) problems.add(`${scope.where}: inserts into ${target.name} without the row's tenant`);
    }

    // Calls into our own functions: followed, with the arguments that hold the tenant.
    collect(statement, (n) => {
      const call = n.FuncCall as Node | undefined;
      const callee = call && functions.get(nameOf(call.funcname));
      if (!callee) return;
      const tenantArgs = new Set<number>();
      ((call.args as unknown[] | undefined) ?? []).forEach((a, i) => {
        if (isTenantExpression(a, scope, params)) tenantArgs.add(i);
      });
      analyseFunction(callee, tenantArgs, false, []);
    });

    function visit(node: unknown, level: Relation[]): void {
      if (Array.isArray(node)) {
        for (const item of node) visit(item, level);
        return;
      }
      if (!node || typeof node !== 'object') return;
      const n = node as Node;
      const select = n.SelectStmt as Node | undefined;
      const update = n.UpdateStmt as Node | undefined;
      const remove = n.DeleteStmt as Node | undefined;
      const insert = n.InsertStmt as Node | undefined;
      if (select || update || remove) {
        const s = (select ?? update ?? remove) as Node;
        const own: Relation[] = [];
        if (s.relation) own.push(relationOf(s.relation as Node, s));
        for (const item of [
          ...((s.fromClause as unknown[]) ?? []),
          ...((s.usingClause as unknown[]) ?? []),
        ])
          fromItem(item, s, own);
        relations.push(...own);
        for (const [key, value] of Object.entries(s))
          if (key !== 'relation' && key !== 'fromClause' && key !== 'usingClause')
            visit(value, own);
        for (const item of [
          ...((s.fromClause as unknown[]) ?? []),
          ...((s.usingClause as unknown[]) ?? []),
        ])
          visitFromItem(item, own);
        return;
      }
      if (insert) {
        const target = { ...relationOf(insert.relation as Node, insert), inserted: true };
        relations.push(target);
        const columns = ((insert.cols as Node[] | undefined) ?? []).map((c) =>
          String((c.ResTarget as Node).name),
        );
        inserts.push({ target, columns, source: insert.selectStmt as Node | undefined });
        for (const [key, value] of Object.entries(insert))
          if (key !== 'relation') visit(value, level);
        return;
      }
      const expr = n.A_Expr as Node | undefined;
      if (expr && expr.kind === 'AEXPR_OP' && nameOf(expr.name) === '=')
        equalities.push({ left: expr.lexpr, right: expr.rexpr, level });
      for (const value of Object.values(n)) visit(value, level);
    }

    /** A FROM item's relations (joins walked, subqueries and functions are their own levels). */
    function fromItem(item: unknown, owner: Node, into: Relation[]): Relation[] {
      const n = item as Node;
      if (n.RangeVar) {
        const r = relationOf(n.RangeVar as Node, owner);
        into.push(r);
        return [r];
      }
      const join = n.JoinExpr as Node | undefined;
      if (!join) return [];
      const left = fromItem(join.larg, owner, into);
      const right = fromItem(join.rarg, owner, into);
      const using = ((join.usingClause as Node[] | undefined) ?? []).map(
        (u) => (u.String as Node).sval,
      );
      if (using.includes('tenant_id')) links.push([left, right]);
      return [...left, ...right];
    }

    /** What a FROM item holds besides relations: join conditions, subqueries, functions. */
    function visitFromItem(item: unknown, level: Relation[]): void {
      const n = item as Node;
      const join = n.JoinExpr as Node | undefined;
      if (join) {
        visitFromItem(join.larg, level);
        visitFromItem(join.rarg, level);
        visit(join.quals, level);
      } else if (!n.RangeVar) visit(n, level);
    }
  }
}

interface FunctionScope {
  where: string;
  rowTrigger: boolean;
  transition: Set<string>;
  /** Variables and parameters holding the row's tenant (lower case). */
  tenantNames: Set<string>;
  /** `$n` parameters holding it (an SQL function's, by position). */
  tenantParams: Set<number>;
}

interface Relation {
  name: string;
  alias: string | undefined;
  level: Node;
  inserted?: boolean;
}

function relationOf(rangeVar: Node, level: Node): Relation {
  const r = (rangeVar.RangeVar ?? rangeVar) as Node;
  return {
    name: String(r.relname),
    alias: ((r.alias as Node | undefined)?.aliasname as string | undefined) ?? undefined,
    level,
  };
}

function columnFields(node: Node | undefined): string[] | undefined {
  const ref = node?.ColumnRef as Node | undefined;
  if (!ref) return undefined;
  const fields = (ref.fields as Node[]).map((f) => (f.String as Node | undefined)?.sval);
  return fields.every((f) => typeof f === 'string')
    ? (fields as string[]).map((f) => f.toLowerCase())
    : undefined;
}

function nameOf(names: unknown): string {
  const list = (names as Node[] | undefined) ?? [];
  return String(((list[list.length - 1]?.String as Node | undefined)?.sval as string) ?? '');
}

function firstTarget(statement: Node): unknown {
  const select = statement.SelectStmt as Node | undefined;
  return ((select?.targetList as Node[] | undefined)?.[0]?.ResTarget as Node | undefined)?.val;
}

function collect(node: unknown, each: (n: Node) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) collect(item, each);
    return;
  }
  if (!node || typeof node !== 'object') return;
  each(node as Node);
  for (const value of Object.values(node as Node)) collect(value, each);
}
