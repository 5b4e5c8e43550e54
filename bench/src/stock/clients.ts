import { Pool } from 'undici';

/** What `clients` concurrent HTTP clients did in one timed slice. */
export interface Burst {
  requests: number;
  seconds: number;
  perSecond: number;
}

export interface BurstOptions {
  origin: string;
  clients: number;
  /** The slice's length; it ends sooner when `nextPath` has nothing left. */
  ms: number;
  headers: Record<string, string>;
  /** The path of a client's next POST, or undefined when there is none left. */
  nextPath: () => string | undefined;
}

/**
 * `clients` clients, one keep-alive connection each, each POSTing its next path as soon as its
 * last answer came (pipelining 1). Any answer but 200 fails the run: a benchmark that measures
 * refusals measures nothing. The rate is over the time until the last answer (shorter than `ms`
 * if the paths ran out: then every client stops).
 */
export async function postBurst(o: BurstOptions): Promise<Burst> {
  const pool = new Pool(o.origin, { connections: o.clients, pipelining: 1 });
  try {
    const started = performance.now();
    let end = started + o.ms;
    let requests = 0;
    await Promise.all(
      Array.from({ length: o.clients }, async () => {
        while (performance.now() < end) {
          const path = o.nextPath();
          if (!path) {
            end = Math.min(end, performance.now());
            break;
          }
          const res = await pool.request({ method: 'POST', path, headers: o.headers });
          const text = await res.body.text();
          if (res.statusCode !== 200) throw new Error(`POST ${path}: ${res.statusCode} ${text}`);
          requests++;
        }
      }),
    );
    // Until the last answer: every request counted was answered within it.
    const seconds = (performance.now() - started) / 1000;
    return { requests, seconds, perSecond: requests / seconds };
  } finally {
    await pool.close();
  }
}
