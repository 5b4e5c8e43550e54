import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/index';
import { API_KEY, BASE_URL, mockPortal, testClient } from './server';

const server = mockPortal();
const ID = '0b6f4c52-3f0e-4c7e-9a39-7d1f0f3b2a11';

describe('requests', () => {
  it('sends the key, the tenant, path parameters, the query and a JSON body', async () => {
    let seen: Request | undefined;
    server.use(
      http.patch(`${BASE_URL}/api/v1/customers/:id`, async ({ request }) => {
        seen = request.clone();
        return HttpResponse.json({ id: ID, name: 'Acme' });
      }),
    );
    const { data, error, response } = await testClient({ baseUrl: `${BASE_URL}/` }).patch(
      '/api/v1/customers/{id}',
      { path: { id: ID }, body: { name: 'Acme' }, headers: { 'If-Match': '"3"' } },
    );
    expect(error).toBeUndefined();
    expect(data).toEqual({ id: ID, name: 'Acme' });
    expect(response?.status).toBe(200);
    expect(seen?.url).toBe(`${BASE_URL}/api/v1/customers/${ID}`);
    expect(seen?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(seen?.headers.get('x-tenant-id')).toBe('demo');
    expect(seen?.headers.get('if-match')).toBe('"3"');
    expect(seen?.headers.get('content-type')).toBe('application/json');
    expect(await seen?.json()).toEqual({ name: 'Acme' });
  });

  it('encodes path parameters and repeats array query values', async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${BASE_URL}/api/v1/settings/webhooks/:id/deliveries/:did`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json({});
      }),
      http.get(`${BASE_URL}/api/v1/sales-orders`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json({ data: [], next_cursor: null });
      }),
    );
    await testClient().get('/api/v1/settings/webhooks/{id}/deliveries/{did}', {
      path: { id: 'a/b', did: 'c d' },
    });
    expect(url?.pathname).toBe('/api/v1/settings/webhooks/a%2Fb/deliveries/c%20d');
    await testClient().get('/api/v1/sales-orders', {
      query: { total_cents: ['gte.100', 'lt.500'], page_size: 20 },
    });
    expect(url?.searchParams.getAll('total_cents')).toEqual(['gte.100', 'lt.500']);
    expect(url?.searchParams.get('page_size')).toBe('20');
  });

  it('answers a 204 with undefined data', async () => {
    server.use(
      http.delete(
        `${BASE_URL}/api/v1/customers/:id`,
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    const result = await testClient().delete('/api/v1/customers/{id}', { path: { id: ID } });
    expect(result.error).toBeUndefined();
    expect('data' in result && result.data === undefined).toBe(true);
    expect(result.response?.status).toBe(204);
  });
});

describe('errors', () => {
  it('decodes the portal’s {code, params, message} into an ApiError', async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/customers/:id`, () =>
        HttpResponse.json(
          {
            code: 'acces_refuse',
            params: { required: 'sales:read' },
            message: 'A right is missing.',
          },
          { status: 403 },
        ),
      ),
    );
    const { data, error } = await testClient().get('/api/v1/customers/{id}', { path: { id: ID } });
    expect(data).toBeUndefined();
    expect(error).toBeInstanceOf(ApiError);
    expect(error?.toJSON()).toEqual({
      code: 'acces_refuse',
      params: { required: 'sales:read' },
      message: 'A right is missing.',
      status: 403,
    });
  });

  it('calls an answer without an error object reponse_invalide', async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/customers/:id`, () =>
        HttpResponse.text('<html>Bad gateway</html>', { status: 404 }),
      ),
    );
    const { error } = await testClient().get('/api/v1/customers/{id}', { path: { id: ID } });
    expect(error?.code).toBe('reponse_invalide');
    expect(error?.status).toBe(404);
    expect(error?.params).toEqual({ body: '<html>Bad gateway</html>' });
  });

  it('calls broken JSON in a success reponse_invalide', async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/customers/:id`, () =>
        HttpResponse.text('{"id": ', { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const { error } = await testClient().get('/api/v1/customers/{id}', { path: { id: ID } });
    expect(error?.code).toBe('reponse_invalide');
  });

  it('gives a network failure its own code', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/customers/:id`, () => HttpResponse.error()));
    const { error } = await testClient({ maxRetries: 0 }).get('/api/v1/customers/{id}', {
      path: { id: ID },
    });
    expect(error?.code).toBe('erreur_reseau');
    expect(error?.status).toBeUndefined();
  });
});
