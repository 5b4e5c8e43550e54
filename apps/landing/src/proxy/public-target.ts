/** Everything the proxy may reach on the portal lives under this prefix. */
export const PUBLIC_PREFIX = '/api/v1/public/';

/**
 * A plain path segment: RFC 3986 unreserved characters only, and not dots alone. A positive
 * list, because what else a segment may mean depends on the server behind: `;` starts a path
 * parameter (Tomcat and Spring read `..;` as `..`), `%` an encoding some decoder undoes
 * (`%2e`, overlong UTF-8 `%c0%ae`, IIS's `%u002e`), `:` an NTFS stream, `+` a space, `@`, `=`,
 * `,`, `!`, `$`, `&`, `'`, `(`, `)`, `*` whatever a router splits on. No public route needs
 * any of them.
 */
const PLAIN_SEGMENT = /^(?!\.+$)[A-Za-z0-9._~-]+$/;
// The query is the portal's to parse (filters may hold `;`, `,`, encodings); only what HTTP
// itself forbids is refused: controls, space, non-ASCII, `#`.
const QUERY_CHARACTERS = /^[\x21-\x22\x24-\x7e]*$/;

/**
 * The raw request target (path and query exactly as received) if it may be forwarded to the
 * portal: origin-form, `/api/v1/public/` followed by plain segments (no empty, dot or encoded
 * segment, no character outside the unreserved set). Anything else is `undefined` and never
 * leaves landing.
 */
export function publicPortalTarget(rawTarget: string): string | undefined {
  if (!rawTarget.startsWith(PUBLIC_PREFIX)) return undefined;
  const queryStart = rawTarget.indexOf('?');
  const path = queryStart === -1 ? rawTarget : rawTarget.slice(0, queryStart);
  const query = queryStart === -1 ? '' : rawTarget.slice(queryStart + 1);
  if (!QUERY_CHARACTERS.test(query)) return undefined;
  const segments = path.slice(PUBLIC_PREFIX.length).split('/');
  return segments.every((segment) => PLAIN_SEGMENT.test(segment)) ? rawTarget : undefined;
}
