import type { IncomingMessage } from 'node:http';
import { ApiError } from '@erp/contract';
import type { Context, Hono } from 'hono';
import type { LandingAppEnv, LandingDeps } from '../deps';
import { forwardToPortal } from './forward';
import { PUBLIC_PREFIX, publicPortalTarget } from './public-target';
import { portalRequestHeaders } from './request-headers';

export { createPortalPool } from './portal-pool';

/**
 * `/api/v1/public/*` → the portal, streamed both ways (SPEC §8). Mounted before the body limit,
 * which would buffer. The target is PORTAL_URL's origin (the pool's) + the validated raw path.
 */
export function registerPublicProxy(app: Hono<LandingAppEnv>, deps: LandingDeps): void {
  app.all(`${PUBLIC_PREFIX}*`, async function proxyToPortal(c) {
    const incoming = c.env?.incoming as IncomingMessage | undefined;
    // The raw target: Hono's URL has dot segments resolved already, which would hide an escape.
    const target = publicPortalTarget(incoming?.url ?? pathAndQuery(c.req.url));
    if (!target) throw new ApiError('introuvable', `No route ${c.req.method} ${c.req.path}.`);
    const method = c.req.method;
    const headers = portalRequestHeaders(incoming?.rawHeaders ?? flatHeaders(c.req.raw.headers), {
      requestId: c.get('requestId'),
      clientAddress: incoming?.socket.remoteAddress ?? 'unknown',
      protocol: (incoming?.socket as { encrypted?: boolean } | undefined)?.encrypted
        ? 'https'
        : 'http',
      trustProxy: deps.env.TRUST_PROXY,
    });
    const hasBody = method !== 'GET' && method !== 'HEAD';
    return forwardToPortal(deps.portal, {
      method,
      target,
      headers,
      body: hasBody ? (incoming ?? c.req.raw.body) : undefined,
      signal: abortWhenClientLeaves(c),
      requestId: c.get('requestId'),
    });
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

/** A client that hangs up should not keep a portal connection busy. */
function abortWhenClientLeaves(c: Context<LandingAppEnv>): AbortSignal | undefined {
  const outgoing = c.env?.outgoing;
  if (!outgoing) return c.req.raw.signal;
  const controller = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) controller.abort();
  });
  return controller.signal;
}
