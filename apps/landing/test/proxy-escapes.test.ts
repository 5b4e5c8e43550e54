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
