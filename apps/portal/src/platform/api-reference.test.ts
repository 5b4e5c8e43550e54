import { readFileSync } from 'node:fs';
import { MODULES } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal } from '../../test/harness';
import { scalarStandaloneBundle } from './scalar-bundle';

const COMMITTED = new URL('../../../../packages/contract/openapi.json', import.meta.url);

/** GET /api/v1/docs: the index page, its two same-origin scripts, and nothing from another host. */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(() => portal.tdb.close());

const scalarBundle = readFileSync(scalarStandaloneBundle(import.meta.dirname));

/** The page's script and the Scalar bundle it loads on demand (its `data-scalar`). */
async function scriptsOf(res: Response): Promise<string[]> {
  const html = await res.text();
  return [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*><\/script>/g)].flatMap((m) => {
    const scalar = /\bdata-scalar="([^"]+)"/.exec(m[0]);
    return scalar ? [scalar[1]!, m[1]!] : [m[1]!];
  });
}

describe('GET /api/v1/docs', () => {
  it('is an HTML page under a CSP that admits only our own origin, and no inline script', async () => {
    const res = await portal.request('/api/v1/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("font-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    // Scalar injects its CSS as <style> elements; scripts stay same-origin files only.
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.clone().text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/https?:\/\//);
    expect(await scriptsOf(res)).toEqual([
      expect.stringMatching(/^docs\/scalar\.[A-Za-z0-9_-]{16}\.js$/),
      expect.stringMatching(/^docs\/reference\.[A-Za-z0-9_-]{16}\.js$/),
    ]);
  });

  it('serves Scalar’s own bundle and the page’s script, immutable, compressed on request', async () => {
    const [scalar, init] = await scriptsOf(await portal.request('/api/v1/docs'));
    const bundle = await portal.request(`/api/v1/${scalar}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await bundle.arrayBuffer()).equals(scalarBundle)).toBe(true);
    const brotli = await portal.request(`/api/v1/${scalar}`, {
      headers: { 'accept-encoding': 'br' },
    });
    expect(brotli.headers.get('content-encoding')).toBe('br');

    const script = await (await portal.request(`/api/v1/${init}`)).text();
    expect(script).toContain("'openapi/' + part + '.json', document.baseURI");
    // Nothing that would reach another host: fonts, telemetry, the agent, MCP, the toolbar.
    expect(script).toContain('"withDefaultFonts":false');
    expect(script).toContain('"telemetry":false');
    expect(script).toContain('"agent":{"disabled":true}');
    expect(script).toContain('"mcp":{"disabled":true}');
    expect(script).toContain('"showDeveloperTools":"never"');
  });

  it('opens on the index of the parts, every operation a link into its part', async () => {
    const html = await (await portal.request('/api/v1/docs')).text();
    const parts = [...html.matchAll(/<li data-document="([a-z]+)" data-tags="([^"]+)">/g)];
    expect(parts.map((m) => m[1])).toEqual(['platform', ...MODULES]);
    // A tag per resource, the module's extra tags after them.
    const accounting = parts.find((m) => m[1] === 'accounting')?.[2]?.split(' ') ?? [];
    expect(accounting).toContain('invoices');
    expect(accounting).toContain('journal-entries');
    expect(accounting.slice(-2)).toEqual(['reports', 'settings-accounting']);
    expect(html).toContain(
      '<a href="docs?module=sales#tag/quotes/POST/api/v1/quotes"><span class="method">POST</span> <code>/api/v1/quotes</code></a> Create a quote',
    );
    expect(html).toContain('<a href="openapi/sales.json">sales.json</a>');
    const links = [...html.matchAll(/href="docs\?module=[a-z]+#tag\//g)];
    const whole = JSON.parse(readFileSync(COMMITTED, 'utf8')) as { paths: object };
    const operations = Object.values(whole.paths).flatMap((item) => Object.keys(item));
    expect(links).toHaveLength(operations.length);
    // Scalar is loaded by the script only when a part is asked for: the index does without it.
    expect(html).not.toMatch(/<script\b[^>]*\bsrc="docs\/scalar\./);
  });

  it('answers an unknown asset with 404 introuvable, as JSON', async () => {
    const res = await portal.request('/api/v1/docs/scalar.0000000000000000.js');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'introuvable' });
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await portal.request('/api/v1/docs');
    const etag = first.headers.get('etag')!;
    const again = await portal.request('/api/v1/docs', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});
