/**
 * RFC 9111's shared-cache rules, kept to what the portal's public routes need: which requests
 * may be answered from the cache, and which responses may be stored and for how long.
 */

/** What a request allows the cache to do. */
export interface RequestCachePolicy {
  /** May be answered from a stored response (or wait for a request already on its way). */
  read: boolean;
  /** Its response may be stored (a `no-cache` request refreshes the entry). */
  store: boolean;
  /** The request's Accept-Encoding, for responses that vary on it ('' when absent). */
  acceptEncoding: string;
}

const BYPASS: RequestCachePolicy = { read: false, store: false, acceptEncoding: '' };

/**
 * From the request's raw headers (Node's flat `rawHeaders`): `Authorization` or `Cookie` bypass
 * the cache entirely (a shared cache never answers nor stores a credentialed request);
 * `Cache-Control: no-cache` or `Pragma: no-cache` go to the portal and refresh the entry;
 * `Cache-Control: no-store` goes to the portal and stores nothing.
 */
export function requestCachePolicy(raw: readonly string[]): RequestCachePolicy {
  let read = true;
  let store = true;
  let acceptEncoding = '';
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    if (name === 'authorization' || name === 'cookie') return BYPASS;
    if (name === 'accept-encoding') {
      acceptEncoding = acceptEncoding ? `${acceptEncoding}, ${value}` : value;
    } else if (name === 'cache-control') {
      const directives = parseCacheControl(value);
      if (directives.has('no-store')) {
        read = false;
        store = false;
      } else if (directives.has('no-cache') || directives.get('max-age') === '0') {
        read = false;
      }
    } else if (name === 'pragma' && /(?:^|,)\s*no-cache\s*(?:,|$)/i.test(value)) {
      read = false;
    }
  }
  return { read, store, acceptEncoding };
}

/** How a storable response is kept. */
export interface Storability {
  /** Seconds the response is fresh for, counted from its generation (s-maxage ?? max-age). */
  lifetimeSeconds: number;
  /** Seconds it had already spent in caches upstream (its own `Age`), usually 0. */
  initialAgeSeconds: number;
  /** Stored per Accept-Encoding (`Vary: Accept-Encoding`). */
  variesOnEncoding: boolean;
}

/**
 * Whether a portal response may be stored, from its status and flat `[name, value, …]` headers
 * (lower-case names): a 200 whose Cache-Control says `public` with `s-maxage` or `max-age` > 0
 * and none of `no-store`, `private`, `no-cache`; no Set-Cookie; no Vary other than
 * Accept-Encoding. Anything else is `undefined`: forwarded, never stored.
 */
export function responseStorability(
  status: number,
  headers: readonly string[],
): Storability | undefined {
  if (status !== 200) return undefined;
  let cacheControl = '';
  let age = 0;
  let variesOnEncoding = false;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i] as string;
    const value = headers[i + 1] as string;
    if (name === 'set-cookie') return undefined;
    if (name === 'cache-control') cacheControl = cacheControl ? `${cacheControl},${value}` : value;
    else if (name === 'age') age = Number.parseInt(value, 10) || 0;
    else if (name === 'vary') {
      for (const field of value.split(',')) {
        const trimmed = field.trim().toLowerCase();
        if (trimmed === 'accept-encoding') variesOnEncoding = true;
        else if (trimmed) return undefined; // '*' or any other request header
      }
    }
  }
  const directives = parseCacheControl(cacheControl);
  if (!directives.has('public')) return undefined;
  if (directives.has('no-store') || directives.has('private') || directives.has('no-cache')) {
    return undefined;
  }
  const lifetime = deltaSeconds(directives.get('s-maxage') ?? directives.get('max-age'));
  if (!lifetime || lifetime <= age) return undefined;
  return { lifetimeSeconds: lifetime, initialAgeSeconds: age, variesOnEncoding };
}

/** `max-age=60, public` → {max-age: '60', public: ''}; names lower-cased, quotes removed. */
export function parseCacheControl(value: string): Map<string, string> {
  const directives = new Map<string, string>();
  if (!value) return directives;
  for (const part of value.split(',')) {
    const equals = part.indexOf('=');
    const name = (equals === -1 ? part : part.slice(0, equals)).trim().toLowerCase();
    if (!name) continue;
    const argument = equals === -1 ? '' : part.slice(equals + 1).trim();
    // The first occurrence wins (RFC 9111 §4.2.1 lets a cache treat duplicates as stale; the
    // portal never sends them).
    if (!directives.has(name)) directives.set(name, argument.replace(/^"(.*)"$/, '$1'));
  }
  return directives;
}

function deltaSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,10}$/.test(value)) return undefined;
  return Number(value);
}
