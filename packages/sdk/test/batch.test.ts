import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { batch, eq, op, ref } from '../src/index';
import { BASE_URL, mockPortal, testClient } from './server';

const server = mockPortal();
const ID = '0b6f4c52-3f0e-4c7e-9a39-7d1f0f3b2a11';

/** Answers every batch with `status` and `body`, keeping what it was sent. */
function portalAnswering(status: number, body: unknown) {
  const seen: { body: unknown; headers: Headers }[] = [];
  server.use(
    http.post(`${BASE_URL}/api/v1/batch`, async ({ request }) => {
      seen.push({ body: await request.json(), headers: request.headers });
      return HttpResponse.json(body as object, { status });
    }),
  );
  return seen;
}

describe('batch', () => {
  it('sends the steps as operations: paths filled and encoded, references left for the portal', async () => {
    const seen = portalAnswering(200, { results: [] });
    await batch(testClient(), [
      op.post('/api/v1/customers', { body: { name: 'A', customer_type: 'company', active: true } }),
      op.post('/api/v1/sales-orders/{id}/confirm', { path: { id: ref(0, 'id') } }),
      op.get('/api/v1/sales-orders', {
        query: { customer_id: eq(ref(0, 'id')), customer_reference: eq('a&b {x}') },
      }),
      op.patch('/api/v1/customers/{id}', {
        path: { id: 'a/b' },
        body: { name: 'B' },
        ifMatch: '"2"',
      }),
      op.delete('/api/v1/customers/{id}', { path: { id: ID } }),
    ]);
    expect(seen[0]!.body).toEqual({
      operations: [
        {
          method: 'POST',
          path: '/api/v1/customers',
          body: { name: 'A', customer_type: 'company', active: true },
        },
        { method: 'POST', path: '/api/v1/sales-orders/{{0.id}}/confirm' },
        {
          method: 'GET',
          path: '/api/v1/sales-orders?customer_id=eq.{{0.id}}&customer_reference=eq.a%26b%20%7Bx%7D',
        },
        { method: 'PATCH', path: '/api/v1/customers/a%2Fb', body: { name: 'B' }, if_match: '"2"' },
        { method: 'DELETE', path: `/api/v1/customers/${ID}` },
      ],
    });
  });

  it('sends one Idempotency-Key for every attempt, yours if given, and retries a 5xx', async () => {
    let attempts = 0;
    const keys: (string | null)[] = [];
    server.use(
      http.post(`${BASE_URL}/api/v1/batch`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        attempts++;
        return attempts === 1
          ? HttpResponse.json({ code: 'erreur_interne', params: {}, message: 'x' }, { status: 500 })
          : HttpResponse.json({ results: [] });
      }),
    );
    const { error } = await batch(testClient(), [op.get('/api/v1/customers')]);
    expect(error).toBeUndefined();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    const seen = portalAnswering(200, { results: [] });
    await batch(testClient(), [op.get('/api/v1/customers')], { idempotencyKey: 'mine' });
    expect(seen[0]!.headers.get('idempotency-key')).toBe('mine');
  });

  it('returns the failing step’s error with its index', async () => {
    portalAnswering(409, {
      code: 'transition_invalide',
      params: { index: 1, from: 'confirme', action: 'confirm' },
      message: 'Cannot confirm.',
    });
    const { data, error } = await batch(testClient(), [
      op.post('/api/v1/sales-orders/{id}/confirm', { path: { id: ID } }),
      op.post('/api/v1/sales-orders/{id}/confirm', { path: { id: ID } }),
    ]);
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ code: 'transition_invalide', status: 409, params: { index: 1 } });
  });
});
