import type { Context } from 'hono';

/**
 * The client's address, for throttling and audit. Behind a trusted load balancer (TRUST_PROXY)
 * it is the last X-Forwarded-For entry, the one the balancer appended: entries before it are
 * whatever the client sent, and a client choosing its own address would choose its own limits.
 * Otherwise it is the socket's peer.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)
    ?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}
