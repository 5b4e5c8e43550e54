/**
 * Groups concurrent calls into batches: the first call runs at once; calls made while a batch
 * is in flight run together as the next one (no timer, so an idle worker adds no latency).
 * A failing batch is retried one call at a time, so one bad input fails only its own caller.
 */
export function createBatcher<I, O>(
  runBatch: (inputs: I[]) => Promise<O[]>,
  maxBatch = 200,
): (input: I) => Promise<O> {
  type Waiter = { input: I; resolve: (o: O) => void; reject: (e: unknown) => void };
  const queue: Waiter[] = [];
  let inFlight = false;

  async function settle(batch: Waiter[]) {
    try {
      const outputs = await runBatch(batch.map((w) => w.input));
      for (const [i, waiter] of batch.entries()) waiter.resolve(outputs[i] as O);
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const waiter of batch) await settle([waiter]);
    }
  }

  async function drain() {
    if (inFlight) return;
    inFlight = true;
    while (queue.length > 0) await settle(queue.splice(0, maxBatch));
    inFlight = false;
  }

  return (input) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      void drain();
    });
}
