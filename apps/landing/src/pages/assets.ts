import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import type { LandingAppEnv } from '../deps';
import { SITE_CSS } from './site-css';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The stylesheet's URL names its content's hash: cached for a year, a new version is a new URL. */
export const STYLESHEET_URL = `/assets/site.${hashOf(SITE_CSS)}.css`;

/** The mark in the header, as the tab's icon (SVG: one file for every size). */
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d4ed8"/><stop offset="1" stop-color="#0e7490"/></linearGradient></defs><rect width="32" height="32" rx="7" fill="url(#g)"/></svg>';
export const FAVICON_URL = `/assets/icon.${hashOf(FAVICON_SVG)}.svg`;

/**
 * `GET /assets/site.<hash>.css` and the icon: the current version only (another hash is 404,
 * never a stale file under a name promising it is current). No cookies, so shared caches and
 * CDNs may keep them.
 */
export function registerAssetRoutes(app: Hono<LandingAppEnv>): void {
  app.get(STYLESHEET_URL, (c) => {
    c.header('Cache-Control', IMMUTABLE);
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(SITE_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });
  app.get(FAVICON_URL, (c) => {
    c.header('Cache-Control', IMMUTABLE);
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(FAVICON_SVG, 200, { 'Content-Type': 'image/svg+xml' });
  });
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
