/** Headers that describe one connection, never the message (RFC 9110 §7.6.1), plus Proxy-*. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
]);

/** The lower-case names a message's hop-by-hop rules remove: the fixed ones and those `Connection` lists. */
export function hopByHopNames(connection: string | string[] | undefined): Set<string> {
  if (!connection) return HOP_BY_HOP;
  const names = new Set(HOP_BY_HOP);
  for (const value of Array.isArray(connection) ? connection : [connection]) {
    for (const name of value.split(',')) {
      const trimmed = name.trim().toLowerCase();
      if (trimmed) names.add(trimmed);
    }
  }
  return names;
}

/** Whether a header is hop-by-hop under `names` (any `Proxy-*` header counts). */
export function isHopByHop(name: string, names: Set<string>): boolean {
  return names.has(name) || name.startsWith('proxy-');
}
