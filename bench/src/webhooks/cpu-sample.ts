import { machineBusyMs, selfCpuMs, treeCpuMs } from '../lib/cpu';
import { clock } from './child';

/** CPU milliseconds used so far by each process of the run, and the wall clock. */
export interface CpuSample {
  at: number;
  /** The process doing the jobs: the real worker or a no-op worker (0 when none runs). */
  worker: number;
  postgres: number;
  receiver: number;
  /** This process: the events' producer and the polling. */
  bench: number;
  machine: number;
}

export interface CpuPids {
  worker: number | null;
  postmaster: number;
  receiver: number;
}

/** Reads /proc once for every process of the run. */
export function sampleCpu(pids: CpuPids): CpuSample {
  return {
    at: clock(),
    worker: pids.worker === null ? 0 : treeCpuMs(pids.worker),
    postgres: treeCpuMs(pids.postmaster),
    receiver: treeCpuMs(pids.receiver),
    bench: selfCpuMs(),
    machine: machineBusyMs(),
  };
}

/** CPU per item (µs) of each process over a window, and the rest of the machine's CPU. */
export interface CpuPerItem {
  workerUs: number;
  postgresUs: number;
  receiverUs: number;
  benchUs: number;
  /** Other processes' CPU meanwhile, in % of one core: noise when well above 0. */
  othersPct: number;
}

/**
 * CPU per item between two samples. `workerFrom` (when the worker started mid-window) moves
 * the worker's share to a later sample and `workerItems` counts only the items after it.
 */
export function cpuPerItem(
  from: CpuSample,
  to: CpuSample,
  items: number,
  worker?: { from: CpuSample; items: number },
): CpuPerItem {
  const d = (key: keyof CpuSample) => to[key] - from[key];
  const ours = d('worker') + d('postgres') + d('receiver') + d('bench');
  const workerUs = worker
    ? ((to.worker - worker.from.worker) * 1000) / worker.items
    : (d('worker') * 1000) / items;
  return {
    workerUs,
    postgresUs: (d('postgres') * 1000) / items,
    receiverUs: (d('receiver') * 1000) / items,
    benchUs: (d('bench') * 1000) / items,
    othersPct: Math.max(0, ((d('machine') - ours) / d('at')) * 100),
  };
}
