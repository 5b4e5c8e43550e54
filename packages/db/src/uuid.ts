import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit counter (RFC 9562's
 * method 1: drawn at random, below half, at each new millisecond, incremented within one), then
 * random bits; so the ids one process draws increase, in the order drawn. The engine names a
 * write's ids with it before the statement (SPEC §19: no volatile function in a statement Citus
 * routes to one node); `erp_uuid_offset(base, n)` derives the statement's other ids from it,
 * below the next statement's base. Same layout as the database's `erp_uuidv7()`.
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = randomFillSync(new Uint8Array(16));
  if (now > lastMs) {
    lastMs = now;
    counter = ((bytes[6]! & 0x07) << 8) | bytes[7]!;
  } else if (++counter > 0xfff) {
    lastMs += 1;
    counter = 0;
  }
  let ms = lastMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
