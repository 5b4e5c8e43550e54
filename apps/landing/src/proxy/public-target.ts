/** Everything the proxy may reach on the portal lives under this prefix. */
export const PUBLIC_PREFIX = '/api/v1/public/';

// RFC 3986 path characters only: no backslash, no space, nothing outside ASCII.
const PATH_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
// Encoded dot, slash, backslash, percent (double encoding) or NUL: a path the portal could decode
// into another one.
const DANGEROUS_ENCODING = /%(?:2e|2f|5c|25|00)/i;
const BROKEN_ENCODING = /%(?![0-9A-Fa-f]{2})/;
const QUERY_CHARACTERS = /^[\x21-\x22\x24-\x7e]*$/;

/**
 * The raw request target (path and query exactly as received) if it may be forwarded to the
 * portal: origin-form, under `/api/v1/public/`, with no dot segment, empty segment, backslash or
 * encoded separator. Anything else is `undefined` and never leaves landing.
 */
export function publicPortalTarget(rawTarget: string): string | undefined {
  if (!rawTarget.startsWith(PUBLIC_PREFIX)) return undefined;
  const queryStart = rawTarget.indexOf('?');
  const path = queryStart === -1 ? rawTarget : rawTarget.slice(0, queryStart);
  const query = queryStart === -1 ? '' : rawTarget.slice(queryStart + 1);
  if (!PATH_CHARACTERS.test(path) || !QUERY_CHARACTERS.test(query)) return undefined;
  if (DANGEROUS_ENCODING.test(path) || BROKEN_ENCODING.test(path)) return undefined;
  if (path.includes('//')) return undefined;
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '..') return undefined;
  }
  return rawTarget;
}
