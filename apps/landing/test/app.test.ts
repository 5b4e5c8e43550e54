import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLanding, type TestLanding } from './harness';

let landing: TestLanding;
beforeAll(async () => {
  landing = await createTestLanding();
});
afterAll(() => landing.close());

describe('landing app', () => {
  it('answers health and readiness, with a request id', async () => {
    const health = await landing.app.request('/api/health');
    expect(health.status).toBe(200);
    expect(health.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
    const ready = await landing.app.request('/api/ready');
    expect(await ready.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown routes with introuvable', async () => {
    const res = await landing.app.request('/api/nothing-here', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'introuvable', params: {} });
  });
});
