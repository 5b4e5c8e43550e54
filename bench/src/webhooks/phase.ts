import type { CpuPerItem } from './cpu-sample';

/** One phase in one round: `items` jobs or deliveries done in `seconds`. */
export interface PhaseSample {
  items: number;
  seconds: number;
  perSec: number;
  cpu: CpuPerItem;
  /** Phase-specific figures (producer rate, start-up time…), kept in the results file. */
  notes: Record<string, number>;
  /** Requests the receiver got twice (deliveries are at least once). */
  duplicates?: number;
  /** Latency phase only: commit → arrival at the receiver, and commit → recorded, in ms. */
  latency?: { arrivalMs: number[]; recordedMs: number[] };
}
