import type { Context } from 'hono';
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { LandingAppEnv } from '../deps';

/** How long a browser or a shared cache may keep a page. */
export type PageCaching =
  /** Marketing pages: kept, revalidated on each use (a deploy's new stylesheet URL shows at once). */
  | 'revalidate'
  /** What the visitor typed, or a password: never stored anywhere. */
  | 'private';

const CACHE_CONTROL: Record<PageCaching, string> = {
  revalidate: 'no-cache',
  private: 'no-store',
};

/** A complete HTML document as the response, with its status and caching. */
export async function renderPage(
  c: Context<LandingAppEnv>,
  page: JSX.Element,
  options: { status?: ContentfulStatusCode; caching?: PageCaching } = {},
): Promise<Response> {
  c.header('Cache-Control', CACHE_CONTROL[options.caching ?? 'revalidate']);
  return c.html(`<!doctype html>${await page}`, options.status ?? 200);
}

/**
 * The site's origin as the visitor reached it, for the absolute URLs link previews need. The
 * Host header is the browser's; behind a trusted load balancer its forwarded scheme counts.
 */
export function siteOrigin(c: Context<LandingAppEnv>, trustProxy: boolean): string {
  const url = new URL(c.req.url);
  const forwarded = trustProxy ? c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() : '';
  const scheme =
    forwarded === 'https' || forwarded === 'http' ? forwarded : url.protocol.slice(0, -1);
  return `${scheme}://${url.host}`;
}

/** Whether the client asked for a page rather than JSON (one definition, in @erp/http). */
export { wantsHtml } from '@erp/http';
