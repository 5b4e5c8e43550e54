// The portal's own module, measured as the request path calls it (bench is a tool, not an app).
import { hashApiKey, parseApiKey } from '../../../apps/portal/src/auth/api-key-format';

/** Cost of one in-process step of key verification. */
export interface InProcessCost {
  step: string;
  iterations: number;
  usPerOp: number;
  opsPerSec: number;
}

const ITERATIONS = 200_000;

/** Times the CPU-only steps the portal runs before its one database call. */
export function measureInProcessCosts(key: string, hashSecretHex: string): InProcessCost[] {
  const secret = Buffer.from(hashSecretHex);
  const forged = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
  let sink = 0; // consumed results, so the JIT cannot drop the work being timed
  const steps: Array<[string, () => void]> = [
    ['parse + checksum (valid key)', () => (sink += parseApiKey(key)?.prefix.length ?? 0)],
    ['parse + checksum (forged key)', () => (sink += parseApiKey(forged) === null ? 1 : 0)],
    ['HMAC-SHA256 of the key', () => (sink += hashApiKey(key, secret)[0]!)],
    [
      'parse + checksum + HMAC',
      () => {
        const parts = parseApiKey(key)!;
        sink += hashApiKey(parts.key, secret)[0]!;
      },
    ],
  ];
  const costs = steps.map(([step, run]) => {
    for (let i = 0; i < ITERATIONS / 10; i++) run(); // warm-up: let the JIT optimise first
    const start = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS; i++) run();
    const ns = Number(process.hrtime.bigint() - start);
    return {
      step,
      iterations: ITERATIONS,
      usPerOp: ns / ITERATIONS / 1000,
      opsPerSec: (ITERATIONS * 1e9) / ns,
    };
  });
  if (sink === 0) throw new Error('unreachable: keeps `sink` alive');
  return costs;
}
