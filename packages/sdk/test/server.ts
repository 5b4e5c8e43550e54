import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type ApiKeyOptions, createClient } from '../src/index';

export const BASE_URL = 'https://portal.test';
export const API_KEY = 'service_live_k7Qm2xYp9a_secret';

/** msw for the file: unhandled requests fail the test. */
export function mockPortal() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** A client with a 1 ms backoff step, so retry tests take no time unless a server asks for it. */
export function testClient(options: Partial<ApiKeyOptions> = {}) {
  return createClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    tenantId: 'demo',
    backoffMs: 1,
    ...options,
  });
}
