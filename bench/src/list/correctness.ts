import pg from 'pg';
import type { HttpRoute } from '../lib/http-rounds';
import type { ListStatement } from './list-statement';

/** What the checks established, for the report. */
export interface CorrectnessReport {
  bodyBytes: number;
  rows: number;
  nextCursor: string | null;
  /** Every target answered the same bytes as the portal. */
  identicalBodies: string[];
  /** The list statement texts seen in pg_stat_activity on the portal's connections. */
  portalStatementsSeen: number;
}

interface Page {
  data: Array<{ id: string; status: string }>;
  next_cursor: string | null;
}

/**
 * Before measuring: every target answers the portal's bytes; those are the right 50 rows
 * (checked against an independent query) of the right status; and the portal was seen
 * running exactly the statement the bare servers run.
 */
export async function checkSameAnswers(
  routes: HttpRoute[],
  portal: HttpRoute,
  expect: { databaseUrl: string; tenantId: string; status: string; statement: ListStatement },
): Promise<CorrectnessReport> {
  const get = async (route: HttpRoute) => {
    const res = await fetch(route.url, { headers: route.headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${route.name}: ${res.status} ${body}`);
    return body;
  };
  const reference = await get(portal);
  const identicalBodies: string[] = [];
  for (const route of routes) {
    const body = await get(route);
    if (body !== reference) {
      throw new Error(
        `${route.name} answers differently from the portal:\n  portal: ${reference.slice(0, 300)}…\n  ${route.name}: ${body.slice(0, 300)}…`,
      );
    }
    identicalBodies.push(route.name);
  }

  const page = JSON.parse(reference) as Page;
  const pageSize = expect.statement.pageSize;
  const client = new pg.Client({ connectionString: expect.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      'SELECT id FROM sales_orders WHERE tenant_id = $1 AND status = $2 ORDER BY id DESC LIMIT $3',
      [expect.tenantId, expect.status, pageSize],
    );
    const ids = page.data.map((r) => r.id);
    if (ids.join() !== rows.map((r) => r.id).join())
      throw new Error('the page is not the newest rows of that status in the tenant');
    if (ids.length !== pageSize || page.data.some((r) => r.status !== expect.status))
      throw new Error(`expected ${pageSize} rows, all ${expect.status}`);
    if (!page.next_cursor) throw new Error('expected a next_cursor');

    const seen = await portalStatements(client, portal, expect.statement.text);
    if (seen.size !== 1 || !seen.has(expect.statement.text)) {
      throw new Error(
        `the portal ran other list statements than the bare servers':\n${[...seen].join('\n')}\nvs\n${expect.statement.text}`,
      );
    }
    return {
      bodyBytes: Buffer.byteLength(reference),
      rows: ids.length,
      nextCursor: page.next_cursor,
      identicalBodies,
      portalStatementsSeen: seen.size,
    };
  } finally {
    await client.end();
  }
}

/**
 * Requests the portal concurrently while sampling pg_stat_activity, which shows each
 * backend's current (or last) statement text: the list statements its connections ran.
 */
async function portalStatements(
  client: pg.Client,
  portal: HttpRoute,
  text: string,
): Promise<Set<string>> {
  // Any list of the same table: `SELECT … FROM (SELECT * FROM <table> t WHERE`.
  const from = text.indexOf(' FROM (SELECT * FROM ');
  const like = `SELECT %${text.slice(from, text.indexOf(' WHERE ', from))}%`;
  const seen = new Set<string>();
  const deadline = Date.now() + 5_000;
  let done = false;
  const load = Array.from({ length: 8 }, async () => {
    while (!done) await (await fetch(portal.url, { headers: portal.headers })).arrayBuffer();
  });
  let until = deadline;
  try {
    // Until the first sighting, then half a second more to catch any other text.
    while (Date.now() < until) {
      const { rows } = await client.query<{ query: string }>(
        "SELECT query FROM pg_stat_activity WHERE application_name LIKE 'portal%' AND query LIKE $1",
        [like],
      );
      for (const r of rows) seen.add(r.query);
      if (seen.size && until === deadline) until = Date.now() + 500;
    }
  } finally {
    done = true;
    await Promise.all(load);
  }
  return seen;
}
