import { ApiError } from '@erp/contract';
import { type Database, type Kysely, takeRateLimitUnit } from '@erp/db';
import { throttleKey } from '@erp/http';

const HOUR_MS = 3_600_000;
/** `landing:<scope>:<client address>`: the address is whatever follows the scope (IPv6 has colons). */
const PER_ADDRESS = /^(landing:[^:]+):(.+)$/;

/**
 * Takes one unit of an hourly bucket shared by every landing instance (`rate_limit_take`), or
 * throws 429 `limite_depassee` with `Retry-After` in seconds. Every landing throttle is per
 * client address, `landing:<scope>:<address>` (forms, onboarding): the address is counted by
 * `throttleKey` (SPEC §3: an IPv6 client by its /64, an IPv4 one, mapped or not, by its address).
 */
export async function takeHourlyUnit(
  db: Kysely<Database>,
  bucket: string,
  limit: number,
): Promise<void> {
  const verdict = await takeRateLimitUnit(db, [{ key: bucketKey(bucket), limit }], HOUR_MS);
  if (verdict.allowed) return;
  const retryAfter = verdict.retryAfterSeconds;
  throw new ApiError(
    'limite_depassee',
    `Too many requests from this address; retry in ${retryAfter} s.`,
    { limit, retry_after: retryAfter },
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}

/** The bucket's key with its address part as `throttleKey` counts it. */
export function bucketKey(bucket: string): string {
  const match = PER_ADDRESS.exec(bucket);
  return match ? `${match[1]}:${throttleKey(match[2]!)}` : bucket;
}
