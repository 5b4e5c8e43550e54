import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher';

describe('createBatcher', () => {
  it('runs the first call alone and groups the calls made while it is in flight', async () => {
    const batches: number[][] = [];
    const double = createBatcher(async (inputs: number[]) => {
      batches.push(inputs);
      await new Promise((r) => setTimeout(r, 10));
      return inputs.map((n) => n * 2);
    });
    const results = await Promise.all([1, 2, 3, 4].map((n) => double(n)));
    expect(results).toEqual([2, 4, 6, 8]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('retries a failed batch call by call, so one bad input fails only its caller', async () => {
    const failing = createBatcher(async (inputs: number[]) => {
      await new Promise((r) => setTimeout(r, 1));
      if (inputs.includes(13)) throw new Error('unlucky');
      return inputs;
    });
    const first = failing(0);
    const results = await Promise.allSettled([first, failing(12), failing(13), failing(14)]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
  });

  it('caps the batch size', async () => {
    const sizes: number[] = [];
    const echo = createBatcher(async (inputs: number[]) => {
      sizes.push(inputs.length);
      await new Promise((r) => setTimeout(r, 1));
      return inputs;
    }, 3);
    await Promise.all(Array.from({ length: 8 }, (_, i) => echo(i)));
    expect(sizes).toEqual([1, 3, 3, 1]);
  });
});
