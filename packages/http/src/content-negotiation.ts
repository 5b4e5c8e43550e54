import type { Context } from 'hono';

/**
 * Whether the client asked for a page rather than JSON: a browser's navigation or form post
 * says `text/html` (with a non-zero weight); `fetch` and API clients do not.
 */
export function wantsHtml(c: Context): boolean {
  const accept = c.req.header('accept') ?? '';
  return accept.split(',').some((range) => {
    const [type, ...parameters] = range.trim().toLowerCase().split(';');
    const q = parameters.find((p) => p.trim().startsWith('q='));
    return type?.trim() === 'text/html' && (!q || Number(q.trim().slice(2)) > 0);
  });
}
