import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLanding } from './harness';
import { startPortalStandIn } from './portal-stand-in';
import { send, startTestLandingServer } from './servers';

let portal: Awaited<ReturnType<typeof startPortalStandIn>>;
let landing: Awaited<ReturnType<typeof startTestLandingServer>>;
beforeAll(async () => {
  portal = await startPortalStandIn();
  landing = await startTestLandingServer({
    PORTAL_URL: portal.url,
    PROXY_RESPONSE_TIMEOUT_MS: '300',
  });
});
afterAll(async () => {
  await landing?.close();
  await portal?.close();
});

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Each case builds a landing with its own database: a minute, for a loaded machine.
describe('public proxy: bounded time, portal down', { timeout: 60_000 }, () => {
  it('answers 504 portail_indisponible when the portal sends no headers in time', async () => {
    const started = Date.now();
    const response = await send(landing.port, { path: '/api/v1/public/never' });
    expect(response.status).toBe(504);
    expect(JSON.parse(response.body.toString())).toEqual({
      code: 'portail_indisponible',
      params: {},
      message: 'The portal did not answer in time.',
    });
    expect(response.headers['x-request-id']).toBeTruthy();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(portal.received.at(-1)?.url).toBe('/api/v1/public/never');
  });

  it('answers 502 portail_indisponible when the portal refuses connections', async () => {
    const down = await createTestLanding({ PORTAL_URL: `http://127.0.0.1:${await closedPort()}` });
    try {
      const response = await down.app.request('/api/v1/public/plans', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({
        code: 'portail_indisponible',
        params: {},
        message: 'The portal cannot be reached.',
      });
      expect(response.headers.get('x-request-id')).toBeTruthy();
    } finally {
      await down.close();
    }
  });

  it('answers 502 when the connection is not ready within PROXY_CONNECT_TIMEOUT_MS', async () => {
    // TCP is accepted but the TLS handshake never answered: undici's connect phase never ends.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const stalled = await createTestLanding({
      PORTAL_URL: `https://127.0.0.1:${port}`,
      PROXY_CONNECT_TIMEOUT_MS: '100',
      PROXY_RESPONSE_TIMEOUT_MS: '60000',
    });
    try {
      const started = Date.now();
      const response = await stalled.app.request('/api/v1/public/plans');
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({
        code: 'portail_indisponible',
        params: {},
        message: 'The portal cannot be reached.',
      });
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await stalled.close();
      silent.close();
    }
  });

  it('still serves the next request after a timeout (the pool recovers)', async () => {
    const response = await send(landing.port, { path: '/api/v1/public/slow' });
    expect(response.status).toBe(200);
  });
});
