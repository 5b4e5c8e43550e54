import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { LandingAppEnv } from '../deps';

/**
 * The client's address for throttling: X-Forwarded-For's first hop behind a trusted load
 * balancer (TRUST_PROXY), the socket's peer otherwise. A client cannot choose it unless trusted.
 */
export function clientAddress(c: Context<LandingAppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  if (!c.env?.incoming) return 'unknown';
  return getConnInfo(c).remote.address ?? 'unknown';
}
