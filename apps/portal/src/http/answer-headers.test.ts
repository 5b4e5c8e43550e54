import { catalogue } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../seed';
import { apiKey, createTestPortal } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let headers: Record<string, string>;

beforeAll(async () => {
  portal = await createTestPortal();
  const tenant = await portal.provisionTenant('business');
  const { key } = await portal.createKey(tenant, ['crm:write']);
  headers = apiKey(key, tenant.slug);
});
afterAll(() => portal.tdb.close());

/** The headers every answer of an API-key request carries, whichever way it was made. */
function expectRequestHeaders(res: Response, requestId?: string) {
  if (requestId) expect(res.headers.get('x-request-id')).toBe(requestId);
  else expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{36}$/);
  expect(res.headers.get('x-ratelimit-limit')).toBe('600');
  expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(600);
  expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
}

describe('answer headers', () => {
  it('an engine answer (list, create, delete) carries the request id and the rate limit, with its own headers', async () => {
    const list = await portal.request('/api/v1/customers?page_size=5', {
      headers: { ...headers, prefer: 'count=exact', 'x-request-id': 'list-1' },
    });
    expect(list.status).toBe(200);
    expectRequestHeaders(list, 'list-1');
    expect(list.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(list.headers.get('preference-applied')).toBe('count=exact');

    const created = await portal.post(
      '/api/v1/customers',
      sampleBody(catalogue.find((r) => r.name === 'customer')!, 1, new Map()),
      headers,
    );
    expect(created.status).toBe(201);
    expectRequestHeaders(created);
    expect(created.headers.get('etag')).toMatch(/^"?W?\/?"?\d+"?$/);
    const { id } = (await created.json()) as { id: string };

    const removed = await portal.request(`/api/v1/customers/${id}`, {
      method: 'DELETE',
      headers,
    });
    expect(removed.status).toBe(204);
    expectRequestHeaders(removed);
    expect(removed.headers.get('content-type')).toBeNull();
  });

  it('an error and a route outside the engine carry them too', async () => {
    const missing = await portal.request('/api/v1/customers/00000000-0000-7000-8000-000000000000', {
      headers: { ...headers, 'x-request-id': 'missing-1' },
    });
    expect(missing.status).toBe(404);
    expectRequestHeaders(missing, 'missing-1');
    expect(missing.headers.get('content-type')).toMatch(/application\/json/);

    const me = await portal.request('/api/v1/me', { headers });
    expect(me.status).toBe(200);
    expectRequestHeaders(me);

    const unknown = await portal.request('/api/v1/nothing-here', {
      headers: { 'x-request-id': 'nothing-1' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-request-id')).toBe('nothing-1');
  });
});
