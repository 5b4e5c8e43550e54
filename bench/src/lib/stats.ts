/** The median of a list (the middle round damps one noisy round either way). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The q-quantile (0..1) of an already sorted list, nearest-rank. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** Sorts a Float64Array view of the recorded samples and returns p50 and p99. */
export function latencySummary(samples: Float64Array): { p50: number; p99: number } {
  const sorted = Float64Array.from(samples).sort();
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
}

/** A growable buffer of float samples (no per-sample allocation while load is running). */
export class SampleBuffer {
  private data = new Float64Array(1 << 16);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}
