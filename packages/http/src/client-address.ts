import { isIPv4, isIPv6 } from 'node:net';
import type { Context } from 'hono';
import { ipv6Hextets } from './ip-address';

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

/**
 * The key a client address is throttled under, by every per-address throttle (SPEC §3: login,
 * password reset, landing's forms and onboarding claims). IPv4 as is, also in its IPv4-mapped
 * IPv6 form (what a dual-stack socket reports). IPv6 by its /64: one subscriber usually holds
 * a whole /64, so counting single addresses would give every client 2^64 fresh budgets.
 */
export function throttleKey(address: string): string {
  const unmapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
  if (isIPv4(unmapped)) return unmapped;
  const hextets = isIPv6(address) ? ipv6Hextets(address) : null;
  if (hextets)
    return `${hextets
      .slice(0, 4)
      .map((h) => h.toString(16))
      .join(':')}::/64`;
  // Not an address (a garbled X-Forwarded-For): throttled under what was sent, bounded.
  return address.slice(0, 100);
}
