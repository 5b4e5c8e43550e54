import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { serverDelay } from '../src/retry';
import { BASE_URL, mockPortal, testClient } from './server';

const server = mockPortal();
const ORDERS = `${BASE_URL}/api/v1/sales-orders`;
const page = { data: [], next_cursor: null };
const limited = (headers: Record<string, string>) =>
  HttpResponse.json(
    { code: 'limite_depassee', params: {}, message: 'Rate limit exceeded.' },
    { status: 429, headers },
  );
const failure = (status: number) =>
  HttpResponse.json({ code: 'erreur_interne', params: {}, message: 'Unexpected.' }, { status });

/** Answers with `answers` in turn (the last one repeats) and records every request. */
function sequence(answers: Array<() => Response>) {
  const requests: Request[] = [];
  const times: number[] = [];
  const resolver = ({ request }: { request: Request }) => {
    requests.push(request);
    times.push(performance.now());
    return answers[Math.min(requests.length, answers.length) - 1]!();
  };
  return { requests, times, resolver };
}

describe('serverDelay', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');
  const answer = (status: number, headers: Record<string, string>) =>
    new Response(null, { status, headers });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(serverDelay(answer(429, { 'retry-after': '7' }), now)).toBe(7000);
    expect(serverDelay(answer(503, { 'retry-after': 'Mon, 23 Nov 2026 10:00:03 GMT' }), now)).toBe(
      3000,
    );
    expect(serverDelay(answer(429, { 'retry-after': 'Mon, 23 Nov 2026 09:59:00 GMT' }), now)).toBe(
      0,
    );
  });

  it('reads X-RateLimit-Reset on a 429 and keeps the later of the two', () => {
    expect(serverDelay(answer(429, { 'x-ratelimit-reset': String(now / 1000 + 4) }), now)).toBe(
      4000,
    );
    const both = { 'retry-after': '2', 'x-ratelimit-reset': String(now / 1000 + 5) };
    expect(serverDelay(answer(429, both), now)).toBe(5000);
    expect(
      serverDelay(answer(503, { 'x-ratelimit-reset': String(now / 1000 + 5) }), now),
    ).toBeUndefined();
  });

  it('ignores what it cannot read', () => {
    expect(serverDelay(answer(429, { 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(serverDelay(answer(429, {}), now)).toBeUndefined();
  });
});

describe('retries', () => {
  it('retries a 429 after Retry-After seconds', async () => {
    const s = sequence([() => limited({ 'retry-after': '1' }), () => HttpResponse.json(page)]);
    server.use(http.get(ORDERS, s.resolver));
    const { data } = await testClient().get('/api/v1/sales-orders');
    expect(data).toEqual(page);
    expect(s.requests).toHaveLength(2);
    expect(s.times[1]! - s.times[0]!).toBeGreaterThanOrEqual(950);
  });

  it('retries a 429 at the HTTP date of Retry-After', async () => {
    // A date has whole seconds: two seconds ahead is at least one second of waiting.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 2000).toUTCString();
    const s = sequence([() => limited({ 'retry-after': at }), () => HttpResponse.json(page)]);
    server.use(http.get(ORDERS, s.resolver));
    const { data } = await testClient().get('/api/v1/sales-orders');
    expect(data).toEqual(page);
    expect(s.requests).toHaveLength(2);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(at) - 5);
    expect(s.times[1]! - s.times[0]!).toBeGreaterThanOrEqual(950);
  });

  it('retries a 429 at X-RateLimit-Reset when Retry-After says less', async () => {
    const reset = Math.floor(Date.now() / 1000) + 2;
    const s = sequence([
      () => limited({ 'retry-after': '0', 'x-ratelimit-reset': String(reset) }),
      () => HttpResponse.json(page),
    ]);
    server.use(http.get(ORDERS, s.resolver));
    await testClient().get('/api/v1/sales-orders');
    expect(s.requests).toHaveLength(2);
    expect(Date.now()).toBeGreaterThanOrEqual(reset * 1000 - 5);
  });

  it('retries a 429 on any method: the portal refused it before acting', async () => {
    const s = sequence([
      () => limited({ 'retry-after': '0' }),
      () => HttpResponse.json({}, { status: 201 }),
    ]);
    server.use(http.post(`${BASE_URL}/api/v1/settings/webhooks`, s.resolver));
    const { error } = await testClient().post('/api/v1/settings/webhooks', {
      body: { url: 'https://example.com/hook', events: ['sales_order.created'], enabled: true },
    });
    expect(error).toBeUndefined();
    expect(s.requests).toHaveLength(2);
  });

  it('returns the 429 at once when the server asks for more than two minutes', async () => {
    const s = sequence([() => limited({ 'retry-after': '3600' })]);
    server.use(http.get(ORDERS, s.resolver));
    const { error } = await testClient().get('/api/v1/sales-orders');
    expect(error?.code).toBe('limite_depassee');
    expect(s.requests).toHaveLength(1);
  });

  it('retries a 5xx and a network failure for a GET', async () => {
    const s = sequence([
      () => failure(503),
      () => HttpResponse.error(),
      () => HttpResponse.json(page),
    ]);
    server.use(http.get(ORDERS, s.resolver));
    const { data } = await testClient().get('/api/v1/sales-orders');
    expect(data).toEqual(page);
    expect(s.requests).toHaveLength(3);
  });

  it('stops when the budget runs out and returns the last error', async () => {
    const s = sequence([() => failure(500)]);
    server.use(http.get(ORDERS, s.resolver));
    const { error, response } = await testClient({ maxRetries: 3 }).get('/api/v1/sales-orders');
    expect(s.requests).toHaveLength(4);
    expect(error?.code).toBe('erreur_interne');
    expect(response?.status).toBe(500);

    const once = sequence([() => HttpResponse.error()]);
    server.use(http.get(ORDERS, once.resolver));
    const network = await testClient({ maxRetries: 0 }).get('/api/v1/sales-orders');
    expect(network.error?.code).toBe('erreur_reseau');
    expect(once.requests).toHaveLength(1);
  });

  it('retries a POST that honours Idempotency-Key, with the same key each time', async () => {
    const s = sequence([
      () => failure(502),
      () => HttpResponse.error(),
      () => HttpResponse.json({}, { status: 201 }),
    ]);
    server.use(http.post(ORDERS, s.resolver));
    const { error } = await testClient().post('/api/v1/sales-orders', {
      body: { customer_id: '0b6f4c52-3f0e-4c7e-9a39-7d1f0f3b2a11', lines: [] } as never,
    });
    expect(error).toBeUndefined();
    const keys = s.requests.map((r) => r.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(new Set(keys).size).toBe(1);
  });

  it('does not replay a POST the portal would not deduplicate, nor a PATCH', async () => {
    const hooks = sequence([() => failure(503)]);
    server.use(http.post(`${BASE_URL}/api/v1/settings/webhooks`, hooks.resolver));
    const { error } = await testClient().post('/api/v1/settings/webhooks', {
      body: { url: 'https://example.com/hook', events: ['sales_order.created'], enabled: true },
    });
    expect(error?.status).toBe(503);
    expect(hooks.requests).toHaveLength(1);
    expect(hooks.requests[0]!.headers.has('idempotency-key')).toBe(false);

    const patch = sequence([() => HttpResponse.error()]);
    server.use(http.patch(`${BASE_URL}/api/v1/customers/:id`, patch.resolver));
    const patched = await testClient().patch('/api/v1/customers/{id}', {
      path: { id: 'x' },
      body: {},
    });
    expect(patched.error?.code).toBe('erreur_reseau');
    expect(patch.requests).toHaveLength(1);
  });

  it('times out each attempt after timeoutMs and retries it', async () => {
    const s = sequence([() => new Promise<Response>(() => {}) as never]);
    server.use(http.get(ORDERS, s.resolver));
    const { error } = await testClient({ timeoutMs: 50, maxRetries: 1 }).get(
      '/api/v1/sales-orders',
    );
    expect(error?.code).toBe('delai_depasse');
    expect(s.requests).toHaveLength(2);
  });

  it('stops a sleeping backoff when the signal aborts', async () => {
    const s = sequence([() => limited({ 'retry-after': '30' })]);
    server.use(http.get(ORDERS, s.resolver));
    const started = performance.now();
    const { error } = await testClient().get('/api/v1/sales-orders', {
      signal: AbortSignal.timeout(100),
    });
    expect(error?.code).toBe('requete_annulee');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(s.requests).toHaveLength(1);
  });

  it('stops an attempt in flight, and sends nothing once aborted', async () => {
    const s = sequence([() => new Promise<Response>(() => {}) as never]);
    server.use(http.get(ORDERS, s.resolver));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const inFlight = await testClient().get('/api/v1/sales-orders', { signal: controller.signal });
    expect(inFlight.error?.code).toBe('requete_annulee');
    const before = await testClient().get('/api/v1/sales-orders', { signal: controller.signal });
    expect(before.error?.code).toBe('requete_annulee');
    expect(s.requests).toHaveLength(1);
  });
});
