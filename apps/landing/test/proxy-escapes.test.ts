import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalStandIn } from './portal-stand-in';
import { send, sendRaw, startTestLandingServer } from './servers';

let portal: Awaited<ReturnType<typeof startPortalStandIn>>;
let landing: Awaited<ReturnType<typeof startTestLandingServer>>;
beforeAll(async () => {
  portal = await startPortalStandIn();
  landing = await startTestLandingServer({ PORTAL_URL: portal.url });
});
afterAll(async () => {
  await landing?.close();
  await portal?.close();
});

// Request targets written verbatim on the socket: none may reach the portal.
const escapes = [
  '/api/v1/public/../internal/tenants',
  '/api/v1/public/./plans',
  '/api/v1/public/plans/.',
  '/api/v1/x/../public/plans',
  '/api/v1/public/%2e%2e/internal/tenants',
  '/api/v1/public/%2E%2e/internal/tenants',
  '/api/v1/public/%2e/plans',
  '/api/v1/public/..%2finternal/tenants',
  '/api/v1/public/..%2Finternal/tenants',
  '/api/v1/public/%2E%2E%2Finternal%2Ftenants',
  '/api/v1/public/..%5cinternal/tenants',
  '/api/v1/public/..%5Cinternal/tenants',
  '/api/v1/public/%252e%252e/internal/tenants',
  '/api/v1/public/%252F..%252Finternal',
  '/api/v1/public/%25%32%65%25%32%65/internal',
  '/api/v1/public/..\\internal/tenants',
  '/api/v1/public\\..\\internal\\tenants',
  '/api/v1/public//../../internal/tenants',
  '/api/v1/public//plans',
  '/api/v1/public/plans%zz',
  '//evil.example/api/v1/public/plans',
  'http://evil.example/api/v1/public/plans',
  'https://evil.example/api/v1/public/../internal/tenants',
  'HTTP://evil.example/api/v1/public/plans',
  `http://${'127.0.0.1'}/api/v1/public/plans`,
  // Segments that are not plain: path parameters (`;`, Tomcat and Spring read `..;` as `..`),
  // any percent-encoding (even of an unreserved character, overlong UTF-8, %u), reserved and
  // sub-delimiter characters a router could split on, dot-only segments, empty segments.
  '/api/v1/public/..;/openapi.json',
  '/api/v1/public/..;/internal/tenants',
  '/api/v1/public/.;/plans',
  '/api/v1/public/plans;jsessionid=x',
  '/api/v1/public/;/plans',
  '/api/v1/public/plans%3b',
  '/api/v1/public/..%3b/openapi.json',
  '/api/v1/public/%2e%2e%3b/openapi.json',
  '/api/v1/public/%70lans',
  '/api/v1/public/plans%20',
  '/api/v1/public/%c0%ae%c0%ae/openapi.json',
  '/api/v1/public/%C0%AE%C0%AE/openapi.json',
  '/api/v1/public/%e0%80%ae%e0%80%ae/openapi.json',
  '/api/v1/public/%u002e%u002e/openapi.json',
  '/api/v1/public/%ef%bc%8e%ef%bc%8e/openapi.json',
  '/api/v1/public/.../openapi.json',
  '/api/v1/public/plans/',
  '/api/v1/public/',
  '/api/v1/public/plans:$DATA',
  '/api/v1/public/plans::$INDEX_ALLOCATION',
  '/api/v1/public/plans@evil',
  '/api/v1/public/plans+x',
  '/api/v1/public/plans=x',
  '/api/v1/public/plans,x',
  '/api/v1/public/plans!',
  "/api/v1/public/plans'",
  '/api/v1/public/plans(x)',
  '/api/v1/public/plans*',
  '/api/v1/public/plans$',
  '/api/v1/public/plans&x',
];

// Plain segments (RFC 3986 unreserved characters) are forwarded as they are.
const plain = [
  '/api/v1/public/plans',
  '/api/v1/public/subscription-plans',
  '/api/v1/public/a_b~c.d-E9',
  '/api/v1/public/.well-known',
  '/api/v1/public/plans?filter=a;b&x=..;/',
];

describe('public proxy: only /api/v1/public/* is ever reached', () => {
  it.each(escapes)('%s → 404 introuvable, nothing forwarded', async (target) => {
    const before = portal.received.length;
    for (const method of ['GET', 'POST']) {
      const response = await sendRaw(landing.port, target, method);
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'introuvable', params: {} });
    }
    expect(portal.received.slice(before)).toEqual([]);
  });

  it.each(plain)('%s is forwarded as it came', async (target) => {
    const response = await sendRaw(landing.port, target);
    expect(portal.received.at(-1)?.url).toBe(target);
    expect(response.status).not.toBe(502);
  });

  it('still forwards a clean path whose query holds encoded slashes and dots', async () => {
    const target = '/api/v1/public/plans?next=%2F..%2Fx&q=a.b';
    const response = await sendRaw(landing.port, target);
    expect(response.status).toBe(404); // the stand-in's own answer for an unknown public path
    expect(JSON.parse(response.body)).toMatchObject({ message: 'portal: no route' });
    expect(portal.received.at(-1)?.url).toBe(target);
  });

  it('goes to PORTAL_URL whatever Host the client sends', async () => {
    const response = await send(landing.port, {
      path: '/api/v1/public/slow',
      headers: { host: 'evil.example:80' },
    });
    expect(response.status).toBe(200);
    expect(portal.received.at(-1)?.headers).toMatchObject({
      host: new URL(portal.url).host,
      'x-forwarded-host': 'evil.example:80',
    });
    expect(portal.received.every((r) => r.url.startsWith('/api/v1/public/'))).toBe(true);
  });
});
