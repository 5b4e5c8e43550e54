/** The longest wait a server may ask for; a longer one is returned as the error instead. */
export const MAX_SERVER_DELAY_MS = 120_000;
const MAX_BACKOFF_MS = 20_000;

/**
 * How long the server asks us to wait, from `Retry-After` (seconds or an HTTP date) and, on a
 * 429, `X-RateLimit-Reset` (Unix seconds): the later of the two. Undefined when neither says.
 */
export function serverDelay(response: Response, now = Date.now()): number | undefined {
  const delays: number[] = [];
  const retryAfter = response.headers.get('retry-after')?.trim();
  if (retryAfter)
    delays.push(
      /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : Date.parse(retryAfter) - now,
    );
  const reset = response.headers.get('x-ratelimit-reset')?.trim();
  if (response.status === 429 && reset && /^\d+$/.test(reset))
    delays.push(Number(reset) * 1000 - now);
  const valid = delays.filter((d) => !Number.isNaN(d));
  return valid.length ? Math.max(0, ...valid) : undefined;
}

/** Exponential backoff with full jitter: a random wait in [0, base × 2^attempt), capped. */
export function backoffDelay(attempt: number, baseMs: number): number {
  return Math.random() * Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
