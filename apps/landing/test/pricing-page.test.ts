import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLanding } from './harness';
import { send, startTestLandingServer } from './servers';

const PLANS = {
  data: [
    {
      code: 'starter',
      name: 'Starter',
      description: 'Sell and follow up leads.',
      currency: 'EUR',
      monthly_price_cents: 1900,
      yearly_price_cents: 19000,
      modules: ['sales', 'crm'],
      max_users: 5,
    },
    {
      code: 'enterprise',
      name: 'Enterprise <Plus>',
      description: 'Every module.',
      currency: 'EUR',
      monthly_price_cents: 14950,
      yearly_price_cents: 179400,
      modules: ['sales', 'hr', 'assets'],
      max_users: null,
    },
  ],
};

/** The portal's public plans route as the portal answers it (public, 60 s), counting requests. */
async function startPlansPortal() {
  const answer = { status: 200, body: JSON.stringify(PLANS) };
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.headers);
    if (req.url !== '/api/v1/public/subscription-plans') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'cache-control': 'public, max-age=60',
    });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** What the portal answers from now on. */
    answer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('GET /pricing with the portal up', () => {
  let portal: Awaited<ReturnType<typeof startPlansPortal>>;
  let landing: Awaited<ReturnType<typeof startTestLandingServer>>;
  beforeAll(async () => {
    portal = await startPlansPortal();
    landing = await startTestLandingServer({ PORTAL_URL: portal.url });
  });
  afterAll(async () => {
    await landing?.close();
    await portal?.close();
  });

  it('shows each plan: name, prices, users and modules, escaped', async () => {
    const response = await send(landing.port, {
      path: '/pricing',
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    const html = response.body.toString();
    expect(html).toContain('<h2 id="plan-starter">Starter</h2>');
    expect(html).toContain('€19 <span>per month</span>');
    expect(html).toContain('or €190 per year (save €38)');
    expect(html).toContain('Up to 5 users');
    expect(html).toContain('<li>Sales</li><li>CRM</li>');
    expect(html).toContain('Enterprise &lt;Plus&gt;');
    expect(html).toContain('€149.50 <span>per month</span>');
    expect(html).toContain('Unlimited users');
    // No saving, none claimed.
    expect(html).toContain('or €1,794 per year</p>');
    expect(html).toContain('<li>Fixed assets</li>');
    expect(html).not.toContain('cannot be shown');
  });

  it('reads the plans through the public proxy: its forwarding headers, and its cache shared with proxied clients', async () => {
    const before = portal.requests.length;
    await send(landing.port, { path: '/pricing' });
    await send(landing.port, { path: '/pricing' });
    const proxied = await send(landing.port, { path: '/api/v1/public/subscription-plans' });
    expect(proxied.status).toBe(200);
    expect(proxied.headers.age).toBeDefined();
    expect(JSON.parse(proxied.body.toString())).toEqual(PLANS);
    // The first test's page filled the cache; everything since was answered from it.
    expect(portal.requests.length).toBe(before);
    expect(portal.requests[0]).toMatchObject({
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      accept: 'application/json',
    });
    expect(portal.requests[0]?.['x-request-id']).toMatch(/.+/);
  });
});

describe('GET /pricing without the plans', () => {
  // The cache off: each case reaches the portal.
  const misbehaving = {} as {
    portal: Awaited<ReturnType<typeof startPlansPortal>>;
    landing: Awaited<ReturnType<typeof createTestLanding>>;
  };
  beforeAll(async () => {
    misbehaving.portal = await startPlansPortal();
    misbehaving.landing = await createTestLanding({
      PORTAL_URL: misbehaving.portal.url,
      PROXY_CACHE_MAX_BYTES: '0',
    });
  });
  afterAll(async () => {
    await misbehaving.landing?.close();
    await misbehaving.portal?.close();
  });

  it('portal down: still 200, says the plans cannot be shown, points to the contact form, not kept by caches', async () => {
    // PORTAL_URL is a closed port.
    const landing = await createTestLanding();
    try {
      const response = await landing.app.request('/pricing', { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await response.text();
      expect(html).toContain('Our plans cannot be shown right now');
      expect(html).toContain('<a href="/contact">write to us</a>');
    } finally {
      await landing.close();
    }
  });

  it.each([
    ['a 500', { status: 500, body: '{"code":"erreur_interne","params":{},"message":"x"}' }],
    ['a body that is not the plan list', { status: 200, body: '{"data":[{"code":1}]}' }],
    ['a body that is not JSON', { status: 200, body: '<html>' }],
  ])('portal answering %s: the same message, never a 500', async (_, answer) => {
    Object.assign(misbehaving.portal.answer, answer);
    const before = misbehaving.portal.requests.length;
    const response = await misbehaving.landing.app.request('/pricing');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Our plans cannot be shown right now');
    expect(misbehaving.portal.requests.length).toBe(before + 1);
  });
});
