import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// Kernel clock ticks per second, the unit of /proc/<pid>/stat CPU times.
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in ticks: a process's own CPU and its reaped children's. */
  ticks: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields are counted after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return { pid, ppid: Number(fields[1]), ticks };
  } catch {
    return null; // the process ended between listing and reading
  }
}

/**
 * CPU milliseconds used so far by a process and all its descendants. Children that already
 * exited are in their parent's cutime/cstime, so a PostgreSQL backend that closed is not lost.
 */
export function treeCpuMs(rootPid: number): number {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is ProcStat => s !== null);
  const children = new Map<number, ProcStat[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  let ticks = 0;
  const stack = all.filter((s) => s.pid === rootPid);
  while (stack.length) {
    const s = stack.pop()!;
    ticks += s.ticks;
    stack.push(...(children.get(s.pid) ?? []));
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** CPU milliseconds used so far by this process (the load generator, during HTTP rounds). */
export function selfCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * CPU milliseconds the whole machine has been busy (all cores, steal included): minus our
 * processes' share, it tells how much other work ran beside the benchmark.
 */
export function machineBusyMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return ((user! + nice! + system! + irq! + softirq! + (steal ?? 0)) * 1000) / TICKS_PER_SECOND;
}
