import type { Context } from 'hono';

/**
 * The portal's origin as the browser reached it: the request's own scheme and `Host`, or,
 * behind a trusted load balancer (`TRUST_PROXY`), the `X-Forwarded-Proto` and
 * `X-Forwarded-Host` it appended (their last entries: anything before was the client's).
 * No configured public URL: it would be one more value to keep in step with DNS, and the
 * browser cannot forge `Host` (see docs/decisions.md, Browser sessions).
 */
export function publicOrigin(c: Context, trustProxy: boolean): string {
  const url = new URL(c.req.url);
  const forwarded = (name: string) =>
    trustProxy ? c.req.header(name)?.split(',').at(-1)?.trim() || undefined : undefined;
  const proto = forwarded('x-forwarded-proto');
  const scheme = proto === 'https' || proto === 'http' ? proto : url.protocol.slice(0, -1);
  const host = forwarded('x-forwarded-host') ?? url.host;
  return `${scheme}://${host}`;
}

/** `host[:port]` of an origin, default ports dropped; undefined for `null` or garbage. */
export function authorityOf(origin: string): string | undefined {
  try {
    return new URL(origin).host || undefined;
  } catch {
    return undefined;
  }
}
