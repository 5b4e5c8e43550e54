import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The headers every page a browser renders gets, on the console (portal) and the marketing
 * pages (landing) alike (SPEC §14): a strict Content-Security-Policy (scripts, styles, fonts,
 * images and fetches from our own origin only; no inline script, no eval, no plugin, no
 * framing, forms post to our origin), `X-Frame-Options: DENY`, no referrer across origins,
 * `nosniff`, and no powerful feature the pages never use. `connectSrc` widens `connect-src`
 * when a page must fetch elsewhere (none does today); `inlineStyles` admits the `<style>`
 * elements a script inserts (the API reference's renderer injects its CSS that way), never
 * inline script.
 */
export function browserSecurityHeaders(
  options: { connectSrc?: readonly string[]; inlineStyles?: boolean } = {},
): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: options.inlineStyles ? ["'self'", "'unsafe-inline'"] : ["'self'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", ...(options.connectSrc ?? [])],
      manifestSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'same-origin',
    xContentTypeOptions: 'nosniff',
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: 'same-origin',
    // HSTS is the TLS-terminating proxy's business; on http://127.0.0.1 it would only mislead.
    strictTransportSecurity: false,
    permissionsPolicy: {
      camera: [],
      microphone: [],
      geolocation: [],
      payment: [],
      usb: [],
    },
  });
}
