import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLanding, type TestLanding } from './harness';

// PORTAL_URL is a closed port: the pricing page below meets a portal that is down.
let landing: TestLanding;
beforeAll(async () => {
  landing = await createTestLanding();
});
afterAll(() => landing.close());

const PAGES = [
  '/',
  '/pricing',
  '/contact',
  '/demo',
  '/contact/thanks',
  '/demo/thanks',
  '/onboarding',
] as const;

const get = (path: string) =>
  landing.app.request(`http://www.example.test${path}`, { headers: { accept: 'text/html' } });

describe('the marketing pages', () => {
  it.each(PAGES)(
    '%s is a complete HTML page under the strict CSP, with no script',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const html = await response.text();
      expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
      expect(html).not.toMatch(/<script|\son[a-z]+=/i);
      expect(html).toMatch(/<title>[^<]*ERP Platform[^<]*<\/title>/);
      expect(html).toMatch(/<meta name="description" content="[^"]{40,}"/);
      expect(html).toContain(`<meta property="og:url" content="http://www.example.test${path}"/>`);
      expect(html).toMatch(/<meta property="og:title" content="[^"]+"/);
      expect(html).toContain('<main id="content">');
      expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/site\.[0-9a-f]{12}\.css"\/>/);
    },
  );

  it('marketing pages may be kept but are revalidated; onboarding is never stored', async () => {
    expect((await get('/')).headers.get('cache-control')).toBe('no-cache');
    expect((await get('/contact')).headers.get('cache-control')).toBe('no-cache');
    expect((await get('/onboarding')).headers.get('cache-control')).toBe('no-store');
  });

  it('serves the stylesheet under its hash for a year, and no other version', async () => {
    const html = await (await get('/')).text();
    const href = /href="(\/assets\/site\.[0-9a-f]{12}\.css)"/.exec(html)?.[1] as string;
    const css = await landing.app.request(href);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await css.text()).toContain(':focus-visible');
    const stale = await landing.app.request('/assets/site.000000000000.css');
    expect(stale.status).toBe(404);
    expect(await stale.json()).toMatchObject({ code: 'introuvable' });
  });

  it('marks the current page in the navigation', async () => {
    const html = await (await get('/pricing')).text();
    expect(html).toContain('<a href="/pricing" aria-current="page">Pricing</a>');
    expect(html).toContain('<a href="/contact">Contact</a>');
  });

  it('escapes what the visitor sends back (the onboarding reference from the query)', async () => {
    const response = await get('/onboarding?reference=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    const html = await response.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('leaves the API and unknown paths as JSON', async () => {
    const unknown = await get('/no-such-page');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'introuvable' });
    const health = await landing.app.request('/api/health');
    expect(await health.json()).toEqual({ status: 'ok' });
  });
});
