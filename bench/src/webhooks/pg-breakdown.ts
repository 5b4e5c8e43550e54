import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

/** PostgreSQL's CPU so far (ms) by kind of process: backends by application, the auxiliary processes, exited children. */
export type PgCpu = Map<string, number>;

const TICK_MS = 10;

function stat(pid: number) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(f[1]),
      own: Number(f[11]) + Number(f[12]),
      reaped: Number(f[13]) + Number(f[14]),
    };
  } catch {
    return null;
  }
}

/** A snapshot of PostgreSQL's CPU by kind of process (`BENCH_PG_BREAKDOWN=1`: a diagnosis). */
export async function pgCpu(db: pg.Pool, postmasterPid: number): Promise<PgCpu> {
  const { rows } = await db.query<{ pid: number; kind: string }>(
    `SELECT pid, CASE WHEN backend_type = 'client backend'
       THEN 'backend ' || coalesce(nullif(application_name, ''), '?') ELSE backend_type END AS kind
     FROM pg_stat_activity`,
  );
  const kinds = new Map(rows.map((r) => [r.pid, r.kind]));
  const out: PgCpu = new Map();
  const add = (k: string, ms: number) => out.set(k, (out.get(k) ?? 0) + ms);
  const master = stat(postmasterPid);
  if (master) {
    add('postmaster', master.own * TICK_MS);
    add('exited children (autovacuum workers, closed backends)', master.reaped * TICK_MS);
  }
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (!s || s.ppid !== postmasterPid) continue;
    const kind = kinds.get(Number(name)) ?? 'other child';
    add(kind, s.own * TICK_MS);
    add(`${kind} processes`, 1);
  }
  return out;
}

/** The difference of two snapshots, in µs per item, largest first. */
export function pgCpuLine(from: PgCpu, to: PgCpu, items: number): string {
  return [...to]
    .filter(([k]) => !k.endsWith(' processes'))
    .map(([k, v]) => [k, ((v - (from.get(k) ?? 0)) * 1000) / items] as const)
    .filter(([, us]) => us >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(
      ([k, us]) =>
        `${k} ${us.toFixed(0)} (${to.get(`${k} processes`) ?? '–'} processes at the end)`,
    )
    .join(', ');
}
