import { EventEmitter } from 'node:events';
import type { Storability } from './cache-policy';

/** Largest body stored: the portal's public answers are a few KB; anything bigger is streamed only. */
export const MAX_CACHED_BODY_BYTES = 256 * 1024;

/** One stored portal response. */
export interface CachedResponse {
  status: number;
  /** Flat `[name, value, …]`, hop-by-hop, Age and X-Request-Id removed, Content-Length set. */
  headers: string[];
  body: Buffer;
  /** When the portal's headers arrived (ms, the cache's clock). */
  storedAt: number;
  initialAgeSeconds: number;
  /** The entry is fresh before this instant (ms). */
  expiresAt: number;
  /** Bytes counted against the cache's budget (body, headers, key). */
  size: number;
}

/**
 * One request to the portal that others asking for the same thing wait for (request
 * collapsing). `signal` is the upstream request's: it aborts when the client that started it
 * leaves while nobody waits (`abortIfUnwanted`), so a departing first client cannot fail the
 * others and an unwanted request does not keep a portal connection busy.
 */
export class Flight {
  readonly signal = new EventEmitter() as EventEmitter & { aborted?: boolean };
  waiters = 0;
  readonly result: Promise<CachedResponse | undefined>;
  private resolve!: (entry: CachedResponse | undefined) => void;
  private settled = false;

  constructor(private readonly onSettled: () => void) {
    this.result = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  /** Whether anyone besides the first client needs the answer. */
  get wanted(): boolean {
    return this.waiters > 0;
  }

  abortIfUnwanted(): void {
    if (this.wanted || this.signal.aborted) return;
    this.signal.aborted = true;
    this.signal.emit('abort');
  }

  /** The stored entry, or `undefined` (not storable, failed, over the limit): waiters then ask the portal themselves. Once only. */
  settle(entry: CachedResponse | undefined): void {
    if (this.settled) return;
    this.settled = true;
    this.onSettled();
    this.resolve(entry);
  }
}

/**
 * The public proxy's shared HTTP cache (RFC 9111, kept simple; rules in cache-policy.ts): in
 * this process's memory, at most `maxBytes`, the oldest entry evicted first.
 *
 * Per instance and in memory on purpose: it only holds responses the portal itself marks
 * `public` (the plan list, `max-age=60`), identical for every visitor, so N landing instances
 * cost the portal N requests a minute per route; sharing it (Redis…) would buy nothing but a
 * network hop and a dependency.
 */
export class ProxyCache {
  private readonly entries = new Map<string, CachedResponse>();
  private readonly flights = new Map<string, Flight>();
  private bytes = 0;

  constructor(
    readonly maxBytes: number,
    readonly now: () => number,
  ) {}

  /** A fresh entry for GET `target` with this Accept-Encoding; stale ones are dropped. */
  lookup(target: string, acceptEncoding: string): CachedResponse | undefined {
    return this.fresh(plainKey(target)) ?? this.fresh(variantKey(target, acceptEncoding));
  }

  /** The request for this target and Accept-Encoding already on its way to the portal, if any. */
  flightFor(target: string, acceptEncoding: string): Flight | undefined {
    return this.flights.get(variantKey(target, acceptEncoding));
  }

  /**
   * A new request to the portal; `shared` ones are registered for others to wait on (a
   * `no-cache` request refreshes the entry but is not shared: it was asked not to reuse).
   */
  startFlight(target: string, acceptEncoding: string, shared: boolean): Flight {
    const key = variantKey(target, acceptEncoding);
    if (!shared) return new Flight(() => {});
    const flight = new Flight(() => {
      if (this.flights.get(key) === flight) this.flights.delete(key);
    });
    this.flights.set(key, flight);
    return flight;
  }

  /** Stores a complete response (its body read within MAX_CACHED_BODY_BYTES); `undefined` if it does not fit. */
  store(
    target: string,
    acceptEncoding: string,
    response: { status: number; headers: readonly string[]; storedAt: number },
    storability: Storability,
    body: Buffer,
  ): CachedResponse | undefined {
    const key = storability.variesOnEncoding
      ? variantKey(target, acceptEncoding)
      : plainKey(target);
    const headers = storedHeaders(response.headers, body.length);
    let size = body.length + key.length;
    for (const part of headers) size += part.length;
    if (size > this.maxBytes) return undefined;
    const entry: CachedResponse = {
      status: response.status,
      headers,
      body,
      storedAt: response.storedAt,
      initialAgeSeconds: storability.initialAgeSeconds,
      expiresAt:
        response.storedAt + (storability.lifetimeSeconds - storability.initialAgeSeconds) * 1000,
      size,
    };
    this.remove(key);
    // The portal started varying (or stopped): the other form of the entry must not answer.
    if (storability.variesOnEncoding) this.remove(plainKey(target));
    while (this.bytes + size > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.remove(oldest);
    }
    this.entries.set(key, entry);
    this.bytes += size;
    return entry;
  }

  /** Seconds since the portal generated the entry's response (the `Age` header). */
  ageSeconds(entry: CachedResponse): number {
    return entry.initialAgeSeconds + Math.max(0, Math.floor((this.now() - entry.storedAt) / 1000));
  }

  /** Bytes held now (tests). */
  get size(): number {
    return this.bytes;
  }

  private fresh(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() < entry.expiresAt) return entry;
    this.remove(key);
    return undefined;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }
}

// Targets are validated (no '\n'), so neither key can collide with the other.
const plainKey = (target: string) => `GET ${target}`;
const variantKey = (target: string, acceptEncoding: string) => `GET ${target}\n${acceptEncoding}`;

/** The headers a hit repeats: the portal's, minus Age and X-Request-Id (each hit's own), with a Content-Length. */
function storedHeaders(headers: readonly string[], bodyLength: number): string[] {
  const kept: string[] = [];
  let hasLength = false;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i] as string;
    if (name === 'age' || name === 'x-request-id') continue;
    if (name === 'content-length') hasLength = true;
    kept.push(name, headers[i + 1] as string);
  }
  if (!hasLength) kept.push('content-length', String(bodyLength));
  return kept;
}
