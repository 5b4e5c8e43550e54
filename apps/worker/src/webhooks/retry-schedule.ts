/** Automatic attempts of a delivery before it is `failed` (about two days at the default base). */
export const MAX_ATTEMPTS = 20;

/** The longest wait a receiver's `Retry-After` can impose. */
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

/**
 * Delay before the attempt after `failedAttempt`: base × attempt² with ±10 % jitter
 * (SPEC §7); a receiver's `Retry-After` (429/503) wins when it asks for longer.
 */
export function nextRetryDelay(
  failedAttempt: number,
  options: { baseMs: number; retryAfterMs?: number | null; random?: () => number },
): number {
  const jitter = 0.9 + 0.2 * (options.random ?? Math.random)();
  const computed = options.baseMs * failedAttempt * failedAttempt * jitter;
  const asked = Math.min(options.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS);
  return Math.round(Math.max(computed, asked));
}

/** `Retry-After` in milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // HTTP dates start with the day's name; Date.parse alone would read '-5' as a year.
  if (!/^[A-Za-z]{3}/.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
