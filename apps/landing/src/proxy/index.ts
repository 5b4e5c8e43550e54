import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '@erp/contract';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Hono } from 'hono';
import type { LandingAppEnv, LandingDeps } from '../deps';
import { requestPortal } from './forward';
import { PUBLIC_PREFIX, publicPortalTarget } from './public-target';
import { portalRequestHeaders } from './request-headers';
import { toWebResponse, writeToClient } from './send-response';

export { createPortalPool } from './portal-pool';

/**
 * `/api/v1/public/*` → the portal, streamed both ways (SPEC §8). Mounted before the body limit,
 * which would buffer. The target is PORTAL_URL's origin (the pool's) + the validated raw path.
 */
export function registerPublicProxy(app: Hono<LandingAppEnv>, deps: LandingDeps): void {
  app.all(`${PUBLIC_PREFIX}*`, async function proxyToPortal(c) {
    const incoming = c.env?.incoming as IncomingMessage | undefined;
    const outgoing = c.env?.outgoing as ServerResponse | undefined;
    // The raw target: Hono's URL has dot segments resolved already, which would hide an escape.
    const target = publicPortalTarget(incoming?.url ?? pathAndQuery(c.req.url));
    if (!target) throw new ApiError('introuvable', `No route ${c.req.method} ${c.req.path}.`);
    const method = c.req.method;
    const requestId = c.get('requestId');
    const headers = portalRequestHeaders(incoming?.rawHeaders ?? flatHeaders(c.req.raw.headers), {
      requestId,
      clientAddress: incoming?.socket.remoteAddress ?? 'unknown',
      protocol: (incoming?.socket as { encrypted?: boolean } | undefined)?.encrypted
        ? 'https'
        : 'http',
      trustProxy: deps.env.TRUST_PROXY,
    });
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const response = await requestPortal(deps.portal, {
      method,
      target,
      headers,
      body: hasBody ? (incoming ?? c.req.raw.body) : undefined,
      signal: outgoing ? abortWhenClientLeaves(outgoing) : c.req.raw.signal,
      requestId,
    }).catch((error: ApiError) => {
      // The path only: a query may carry what a visitor typed.
      deps.logger.warn('portal request failed', {
        request_id: requestId,
        path: c.req.path,
        status: error.status,
        reason: (error.cause as { code?: string } | undefined)?.code,
      });
      throw error;
    });
    // Hono answers HEAD by wrapping the GET route's Response, so HEAD needs one (it has no body).
    if (!outgoing || method === 'HEAD') return toWebResponse(response);
    // Under Node, straight to the socket: converting to a web Response and back cost a write
    // and a stream per request (see ARCHITECTURE, landing proxy measurements).
    writeToClient(outgoing, response);
    return RESPONSE_ALREADY_SENT;
  });
}

function pathAndQuery(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

function flatHeaders(headers: Headers): string[] {
  const flat: string[] = [];
  for (const [name, value] of headers) flat.push(name, value);
  return flat;
}

/**
 * A client that hangs up must not keep a portal connection busy. undici takes an EventEmitter
 * emitting 'abort' as a signal: much cheaper per request than an AbortController on Node 20.
 */
function abortWhenClientLeaves(outgoing: ServerResponse): EventEmitter {
  const signal = new EventEmitter();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) signal.emit('abort');
  });
  return signal;
}
