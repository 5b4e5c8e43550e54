import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLanding, type TestLanding } from './harness';
import { send, startTestLandingServer } from './servers';

let landing: TestLanding;
beforeAll(async () => {
  landing = await createTestLanding({ TRUST_PROXY: 'true', FORM_RATE_LIMIT_PER_HOUR: '3' });
});
afterAll(() => landing.close());

let addressCounter = 0;
const nextAddress = () => `192.0.2.${++addressCounter}`;

function post(path: string, body: string, type: string, address = nextAddress()) {
  return landing.app.request(path, {
    method: 'POST',
    headers: { 'content-type': type, 'x-forwarded-for': address },
    body,
  });
}
const json = (path: string, body: unknown, address?: string) =>
  post(path, typeof body === 'string' ? body : JSON.stringify(body), 'application/json', address);

async function stored() {
  const { rows } = await sql<{ leads: number; jobs: number }>`SELECT
    (SELECT count(*) FROM landing.leads)::int AS leads,
    (SELECT count(*) FROM graphile_worker.jobs WHERE task_identifier = 'landing_forward_lead')::int AS jobs`.execute(
    landing.db,
  );
  return rows[0];
}

const contact = { name: 'Ada', email: 'ada@example.test', message: 'Hello' };
const demo = { name: 'Grace', email: 'grace@example.test', company: 'Navy' };

describe('forms: bad input is 400 requete_invalide naming the field, and stores nothing', () => {
  it.each([
    ['/api/contact', { ...contact, email: undefined }, 'email'],
    ['/api/contact', { ...contact, email: 'not-an-email' }, 'email'],
    ['/api/contact', { ...contact, name: 'x'.repeat(201) }, 'name'],
    ['/api/contact', { ...contact, message: 'x'.repeat(5001) }, 'message'],
    ['/api/contact', { ...contact, message: '   ' }, 'message'],
    ['/api/contact', { ...contact, phone: 'call me maybe' }, 'phone'],
    ['/api/contact', { ...contact, is_admin: true }, ''],
    ['/api/demo', { ...demo, company: undefined }, 'company'],
    ['/api/demo', { ...demo, team_size: 0 }, 'team_size'],
    ['/api/demo', { ...demo, team_size: 'many' }, 'team_size'],
    ['/api/demo', { ...demo, modules_wanted: ['sales', 'teleport'] }, 'modules_wanted.1'],
    ['/api/demo', { ...demo, preferred_date: '2026-13-45' }, 'preferred_date'],
    ['/api/demo', { ...demo, preferred_date: '0000-01-01' }, 'preferred_date'],
    ['/api/demo', { ...demo, preferred_date: '2026-02-30' }, 'preferred_date'],
    ['/api/demo', [demo], ''],
    ['/api/demo', '{"name":', ''],
  ])('%s %j → 400 at "%s"', async (path, body, field) => {
    const before = await stored();
    const response = await json(path, body);
    expect(response.status).toBe(400);
    const error = (await response.json()) as {
      code: string;
      params: { issues: { path: string }[] };
    };
    expect(error.code).toBe('requete_invalide');
    expect(error.params.issues.map((i) => i.path)).toContain(field);
    expect(await stored()).toEqual(before);
  });

  it('refuses other content types, and a bad urlencoded form, with 400', async () => {
    const text = await post('/api/contact', 'name=Ada', 'text/plain');
    expect(text.status).toBe(400);
    expect(await text.json()).toMatchObject({ code: 'requete_invalide' });
    const form = await post(
      '/api/demo',
      'name=Grace&email=grace%40example.test',
      'application/x-www-form-urlencoded',
    );
    expect(form.status).toBe(400);
    expect(await form.json()).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ path: 'company' }] },
    });
  });
});

describe('forms: honeypot and throttle', () => {
  it('a filled honeypot gets the same 202 and nothing is stored', async () => {
    const before = await stored();
    const viaJson = await json('/api/contact', { ...contact, website: 'http://spam.example' });
    expect(viaJson.status).toBe(202);
    expect(await viaJson.json()).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'received',
    });
    const viaForm = await post(
      '/api/demo',
      'name=Bot&email=bot%40example.test&company=Bots&website=x',
      'application/x-www-form-urlencoded',
    );
    expect(viaForm.status).toBe(202);
    expect(await stored()).toEqual(before);
  });

  it('the (N+1)th request of an hour from one address → 429 with Retry-After; others still pass', async () => {
    const address = nextAddress();
    for (let i = 0; i < 3; i++)
      expect((await json('/api/contact', contact, address)).status).toBe(202);
    const before = await stored();
    const refused = await json('/api/demo', demo, address);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'limite_depassee', params: { limit: 3 } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    // A unit comes back after the hour plus one of its 60 slots (the limiter's ring).
    expect(Number.isInteger(retryAfter) && retryAfter >= 3500 && retryAfter <= 3660).toBe(true);
    expect(await stored()).toEqual(before);
    expect((await json('/api/contact', contact, nextAddress())).status).toBe(202);
  });

  it('without TRUST_PROXY the socket address counts: X-Forwarded-For cannot dodge the limit', async () => {
    const server = await startTestLandingServer({ FORM_RATE_LIMIT_PER_HOUR: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await send(server.port, {
          method: 'POST',
          path: '/api/contact',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}` },
          body: JSON.stringify(contact),
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([202, 202, 429]);
      const { rows } = await sql`SELECT DISTINCT client_address FROM landing.leads`.execute(
        server.db,
      );
      expect(rows).toEqual([{ client_address: '127.0.0.1' }]);
    } finally {
      await server.close();
    }
  });
});
