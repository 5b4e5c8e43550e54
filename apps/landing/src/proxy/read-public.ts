import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { MAX_CACHED_BODY_BYTES, type ProxyCache } from './cache';
import { responseStorability } from './cache-policy';
import { requestPortal } from './forward';
import { publicPortalTarget } from './public-target';
import { portalRequestHeaders } from './request-headers';

/** What landing's own pages ask of a public portal route. */
export interface PublicRead {
  /** Path and query under `/api/v1/public/`. */
  target: string;
  requestId: string;
  /** The visitor's address, sent on as X-Forwarded-For like the proxy does. */
  clientAddress: string;
  /** A page waits this long at most (a visitor does not wait out the proxy's 15 s). */
  timeoutMs: number;
}

/** A complete portal answer: status and body bytes. */
export interface PublicAnswer {
  status: number;
  body: Buffer;
}

/**
 * GET a public portal route for a page landing renders, the way the proxy would answer a
 * browser asking for it: the same keep-alive pool, headers and failure mapping
 * (`portail_indisponible`), and the same shared cache — a fresh entry answers, and what the
 * portal marks `public` is stored for the proxy's clients too. Throws the proxy's ApiError
 * when the portal cannot be reached in `timeoutMs`.
 */
export async function readPublic(
  portal: Dispatcher,
  cache: ProxyCache | undefined,
  read: PublicRead,
): Promise<PublicAnswer> {
  const target = publicPortalTarget(read.target);
  if (!target) throw new Error(`not a public portal route: ${read.target}`);
  // No Accept-Encoding is sent, so only an entry stored in plain bytes may answer.
  const entry = cache?.lookup(target, '');
  if (entry && !hasContentEncoding(entry.headers))
    return { status: entry.status, body: entry.body };
  const headers = portalRequestHeaders(['accept', 'application/json'], {
    requestId: read.requestId,
    clientAddress: read.clientAddress,
    protocol: 'http',
    trustProxy: false,
  });
  const storedAt = cache?.now() ?? 0;
  const response = await requestPortal(portal, {
    method: 'GET',
    target,
    headers,
    signal: AbortSignal.timeout(read.timeoutMs),
    requestId: read.requestId,
  });
  const body = response.body ? await readAll(response.body) : Buffer.alloc(0);
  const storability = responseStorability(response.status, response.headers);
  if (cache && storability && !hasContentEncoding(response.headers)) {
    cache.store(
      target,
      '',
      { status: response.status, headers: response.headers, storedAt },
      storability,
      body,
    );
  }
  return { status: response.status, body };
}

function hasContentEncoding(headers: readonly string[]): boolean {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === 'content-encoding' && headers[i + 1] !== 'identity') return true;
  }
  return false;
}

/** The body, refused past the cache's limit: a page never needs more than a few KB. */
async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += (chunk as Buffer).length;
    if (length > MAX_CACHED_BODY_BYTES) {
      body.destroy();
      throw new Error(`public portal answer over ${MAX_CACHED_BODY_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, length);
}
