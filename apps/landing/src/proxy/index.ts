import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { ApiError } from '@erp/contract';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context, Hono } from 'hono';
import type { LandingAppEnv, LandingDeps } from '../deps';
import { type CachedResponse, type Flight, MAX_CACHED_BODY_BYTES, ProxyCache } from './cache';
import { type RequestCachePolicy, requestCachePolicy, responseStorability } from './cache-policy';
import { type PortalResponse, requestPortal } from './forward';
import { PUBLIC_PREFIX, publicPortalTarget } from './public-target';
import { type PublicAnswer, type PublicRead, readPublic } from './read-public';
import { portalRequestHeaders } from './request-headers';
import {
  type ClientWatch,
  toWebResponse,
  writeStoredToClient,
  writeToClient,
  writeToClientKeepingBody,
} from './send-response';

export { createPortalPool } from './portal-pool';
export type { PublicAnswer, PublicRead } from './read-public';

/** The public portal routes as landing's own pages read them (through the proxy's pool and cache). */
export interface PublicPortal {
  get(read: PublicRead): Promise<PublicAnswer>;
}

/** One request being proxied: what every way of answering it needs. */
interface Exchange {
  c: Context<LandingAppEnv>;
  method: string;
  /** The validated raw path and query. */
  target: string;
  requestId: string;
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
  /** Under Node only: the client hanging up. */
  client?: ClientWatch;
}

/**
 * `/api/v1/public/*` → the portal, streamed both ways (SPEC §8). Mounted before the body limit,
 * which would buffer. The target is PORTAL_URL's origin (the pool's) + the validated raw path.
 * GET and HEAD may be answered by the shared cache (cache.ts) when the portal's own
 * Cache-Control allows it; PROXY_CACHE_MAX_BYTES=0 turns it off. Returns the same path for
 * landing's pages (the pricing page's plans), so they share the pool, the cache and the errors.
 */
export function registerPublicProxy(app: Hono<LandingAppEnv>, deps: LandingDeps): PublicPortal {
  const cache =
    deps.env.PROXY_CACHE_MAX_BYTES > 0
      ? new ProxyCache(deps.env.PROXY_CACHE_MAX_BYTES, () => deps.now().getTime())
      : undefined;

  /** Asks the portal; a failure is logged, then thrown as the ApiError to answer. */
  async function askPortal(
    x: Exchange,
    signal: AbortSignal | EventEmitter | undefined,
  ): Promise<PortalResponse> {
    const { incoming, c } = x;
    const headers = portalRequestHeaders(incoming?.rawHeaders ?? flatHeaders(c.req.raw.headers), {
      requestId: x.requestId,
      clientAddress: incoming?.socket.remoteAddress ?? 'unknown',
      protocol: (incoming?.socket as { encrypted?: boolean } | undefined)?.encrypted
        ? 'https'
        : 'http',
      trustProxy: deps.env.TRUST_PROXY,
    });
    const hasBody = x.method !== 'GET' && x.method !== 'HEAD';
    return requestPortal(deps.portal, {
      method: x.method,
      target: x.target,
      headers,
      body: hasBody ? (incoming ? detachedBody(incoming) : c.req.raw.body) : undefined,
      signal,
      requestId: x.requestId,
    }).catch((error: ApiError) => {
      const reason = (error.cause as { code?: string } | undefined)?.code;
      // The path only: a query may carry what a visitor typed.
      const fields = { request_id: x.requestId, path: c.req.path, reason };
      // A client that hung up aborted the request itself: not the portal's failure, no 502.
      if (x.client?.aborted && reason === 'UND_ERR_ABORTED') {
        deps.logger.debug('client left before the portal answered', fields);
      } else deps.logger.warn('portal request failed', { ...fields, status: error.status });
      throw error;
    });
  }

  /** Nothing can be sent to a client that hung up: no 502 for it, the error is dropped. */
  function failed(x: Exchange, error: unknown): Response {
    if (x.client?.aborted) return RESPONSE_ALREADY_SENT;
    throw error;
  }

  async function forward(x: Exchange): Promise<Response> {
    let response: PortalResponse;
    try {
      response = await askPortal(x, x.client ?? x.c.req.raw.signal);
    } catch (error) {
      return failed(x, error);
    }
    // Hono answers HEAD by wrapping the GET route's Response, so HEAD needs one (it has no body).
    if (!x.outgoing || x.method === 'HEAD') return toWebResponse(response);
    // Under Node, straight to the socket: converting to a web Response and back cost a write
    // and a stream per request (see ARCHITECTURE, landing proxy measurements).
    writeToClient(x.outgoing, response);
    return RESPONSE_ALREADY_SENT;
  }

  function answerStored(x: Exchange & { outgoing: ServerResponse }, entry: CachedResponse) {
    const age = String((cache as ProxyCache).ageSeconds(entry));
    const headers = [...entry.headers, 'age', age, 'x-request-id', x.requestId];
    if (x.method === 'HEAD') return toWebResponse({ status: entry.status, headers, body: null });
    if (!x.client?.aborted) writeStoredToClient(x.outgoing, entry.status, headers, entry.body);
    return RESPONSE_ALREADY_SENT;
  }

  /** A GET the cache has no answer for: asked once, streamed to this client, stored if it may be. */
  async function fill(
    x: Exchange & { outgoing: ServerResponse; client: ClientWatch },
    policy: RequestCachePolicy,
    flight: Flight,
  ): Promise<Response> {
    const store = cache as ProxyCache;
    x.client.once('abort', () => flight.abortIfUnwanted());
    let response: PortalResponse;
    try {
      response = await askPortal(x, flight.signal);
    } catch (error) {
      flight.settle(undefined);
      return failed(x, error);
    }
    const storedAt = store.now();
    const storability = responseStorability(response.status, response.headers);
    const { status, headers, body } = response;
    if (!storability || !body || declaredLength(headers) > MAX_CACHED_BODY_BYTES) {
      flight.settle(undefined);
      if (x.client.aborted) body?.destroy();
      else writeToClient(x.outgoing, response);
      return RESPONSE_ALREADY_SENT;
    }
    writeToClientKeepingBody(
      x.outgoing,
      x.client,
      { status, headers, body },
      {
        limit: MAX_CACHED_BODY_BYTES,
        keepReading: () => flight.wanted,
        done: (bytes) =>
          flight.settle(
            bytes &&
              store.store(
                x.target,
                policy.acceptEncoding,
                { status, headers, storedAt },
                storability,
                bytes,
              ),
          ),
      },
    );
    return RESPONSE_ALREADY_SENT;
  }

  /** GET or HEAD under Node with the cache on: a fresh entry, a request already on its way, or `fill`. */
  async function throughCache(
    x: Exchange & { incoming: IncomingMessage; outgoing: ServerResponse; client: ClientWatch },
  ): Promise<Response> {
    const store = cache as ProxyCache;
    const policy = requestCachePolicy(x.incoming.rawHeaders);
    if (policy.read) {
      const entry = store.lookup(x.target, policy.acceptEncoding);
      if (entry) return answerStored(x, entry);
    }
    // HEAD is answered from a GET's entry, never stored itself.
    if (x.method !== 'GET' || !policy.store) return forward(x);
    const flight = policy.read ? store.flightFor(x.target, policy.acceptEncoding) : undefined;
    if (!flight)
      return fill(x, policy, store.startFlight(x.target, policy.acceptEncoding, policy.read));
    flight.waiters++;
    const entry = await flight.result;
    // Nothing stored (not storable, portal failure, too large): ask like any request.
    return entry ? answerStored(x, entry) : forward(x);
  }

  app.all(`${PUBLIC_PREFIX}*`, async function proxyToPortal(c) {
    const incoming = c.env?.incoming as IncomingMessage | undefined;
    const outgoing = c.env?.outgoing as ServerResponse | undefined;
    // The raw target: Hono's URL has dot segments resolved already, which would hide an escape.
    const target = publicPortalTarget(incoming?.url ?? pathAndQuery(c.req.url));
    if (!target) throw new ApiError('introuvable', `No route ${c.req.method} ${c.req.path}.`);
    const method = c.req.method;
    const requestId = c.get('requestId');
    if (!incoming || !outgoing) return forward({ c, method, target, requestId });
    const x = { c, method, target, requestId, incoming, outgoing, client: watchClient(outgoing) };
    if (cache && (method === 'GET' || method === 'HEAD')) return throughCache(x);
    return forward(x);
  });

  return { get: (read) => readPublic(deps.portal, cache, read) };
}

function pathAndQuery(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

function flatHeaders(headers: Headers): string[] {
  const flat: string[] = [];
  for (const [name, value] of headers) flat.push(name, value);
  return flat;
}

/** The response's Content-Length, or 0 when it has none (chunked). */
function declaredLength(headers: readonly string[]): number {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === 'content-length') return Number(headers[i + 1]) || 0;
  }
  return 0;
}

/**
 * A client that hangs up must not keep a portal connection busy. undici takes an EventEmitter
 * emitting 'abort' as a signal (and reads its `aborted`): much cheaper per request than an
 * AbortController on Node 20.
 */
function watchClient(outgoing: ServerResponse): ClientWatch {
  const client: ClientWatch = new EventEmitter();
  outgoing.once('close', () => {
    if (outgoing.writableFinished) return;
    client.aborted = true;
    client.emit('abort');
  });
  return client;
}

/**
 * The client's body as a stream of its own. undici destroys a request body it stops sending
 * (the portal answered before reading it all, a 413); were that `incoming` itself, the client's
 * connection would die before it got the answer.
 */
function detachedBody(incoming: IncomingMessage): Readable {
  const body = new PassThrough();
  incoming.pipe(body);
  return body;
}
