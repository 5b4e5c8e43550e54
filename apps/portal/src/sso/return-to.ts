import { ApiError } from '@erp/contract';

/**
 * Where a sign-in may land: a page of the console on the portal's own origin, reduced to its
 * path (and query and fragment). Anything that could leave the origin is refused rather than
 * replaced, so a crafted link fails loudly instead of quietly landing somewhere else:
 * another origin, a scheme such as `javascript:`, a scheme-relative `//host`, backslashes and
 * control characters (browsers read `/\host` as `//host`), and the API's own paths.
 */
export function resolveReturnTo(value: string | undefined, origin: string): string {
  if (value === undefined) return '/';
  let url: URL | undefined;
  if (![...value].some((ch) => ch === '\\' || ch <= ' ' || ch === '\u007f')) {
    try {
      url = new URL(value, `${origin}/`);
    } catch {
      url = undefined;
    }
  }
  if (!url || url.origin !== new URL(origin).origin || url.pathname.startsWith('/api/'))
    throw new ApiError('requete_invalide', 'return_to must be a page of this console.', {
      issues: [
        {
          location: 'query',
          path: 'return_to',
          code: 'foreign_return_to',
          message: 'a path such as /records, or a URL on this portal’s own origin (not /api/)',
        },
      ],
    });
  return `${url.pathname}${url.search}${url.hash}`;
}
