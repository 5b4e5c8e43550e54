import { Pool } from 'undici';
import type { LandingEnv } from '../env';

/**
 * The proxy's keep-alive connections to the portal: one undici Pool on PORTAL_URL's origin,
 * with the connect and response-header deadlines of the environment (502 / 504 beyond them).
 */
export function createPortalPool(env: LandingEnv): Pool {
  return new Pool(new URL(env.PORTAL_URL).origin, {
    connections: env.PROXY_MAX_CONNECTIONS,
    connect: { timeout: env.PROXY_CONNECT_TIMEOUT_MS },
    headersTimeout: env.PROXY_RESPONSE_TIMEOUT_MS,
    // Between two chunks of a streamed body: a portal that stalls mid-body is cut off too.
    bodyTimeout: env.PROXY_RESPONSE_TIMEOUT_MS,
    keepAliveTimeout: 4_000,
  });
}
