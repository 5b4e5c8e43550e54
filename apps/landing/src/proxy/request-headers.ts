import { hopByHopNames, isHopByHop } from './hop-by-hop';

/** What the proxy knows about the request besides its headers. */
export interface ForwardingContext {
  requestId: string;
  /** The TCP peer's address. */
  clientAddress: string;
  protocol: 'http' | 'https';
  /** Behind a trusted load balancer: keep its X-Forwarded-* and add to them. */
  trustProxy: boolean;
}

// Replaced by the proxy's own values, or meaningless to the portal (undici sets Host; Node already
// answered Expect: 100-continue).
const REPLACED = new Set([
  'host',
  'expect',
  'x-request-id',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
]);

/**
 * The headers to send the portal, as undici's flat `[name, value, …]` list: the client's
 * end-to-end headers in their order (duplicates kept), then X-Forwarded-For/-Proto/-Host and
 * X-Request-Id. `raw` is the same flat form (Node's `rawHeaders`).
 */
export function portalRequestHeaders(raw: readonly string[], context: ForwardingContext): string[] {
  const connection: string[] = [];
  let host: string | undefined;
  let forwardedFor: string | undefined;
  let forwardedProto: string | undefined;
  let forwardedHost: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    if (name === 'connection') connection.push(value);
    else if (name === 'host') host = value;
    else if (name === 'x-forwarded-for')
      forwardedFor = forwardedFor ? `${forwardedFor}, ${value}` : value;
    else if (name === 'x-forwarded-proto') forwardedProto ??= value;
    else if (name === 'x-forwarded-host') forwardedHost ??= value;
  }
  const dropped = hopByHopNames(connection.length ? connection : undefined);
  const headers: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (REPLACED.has(name) || isHopByHop(name, dropped)) continue;
    headers.push(raw[i] as string, raw[i + 1] as string);
  }
  // Untrusted X-Forwarded-* are dropped: a client must not choose the address the portal throttles.
  const trusted = context.trustProxy;
  headers.push(
    'x-forwarded-for',
    trusted && forwardedFor ? `${forwardedFor}, ${context.clientAddress}` : context.clientAddress,
    'x-forwarded-proto',
    (trusted && forwardedProto) || context.protocol,
    'x-request-id',
    context.requestId,
  );
  const originalHost = (trusted && forwardedHost) || host;
  if (originalHost) headers.push('x-forwarded-host', originalHost);
  return headers;
}
