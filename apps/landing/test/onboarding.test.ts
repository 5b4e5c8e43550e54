import { createHash } from 'node:crypto';
import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLanding, type TestLanding } from './harness';

let landing: TestLanding;
beforeAll(async () => {
  landing = await createTestLanding({
    PORTAL_URL: 'https://portal.example.test/',
    TRUST_PROXY: 'true',
    ONBOARDING_CLAIM_RATE_LIMIT_PER_HOUR: '4',
    ONBOARDING_START_RATE_LIMIT_PER_HOUR: '3',
    PAYMENT_PLAN_PRICES: JSON.stringify({ price_biz: 'business', price_biz_yearly: 'business' }),
  });
});
afterAll(() => landing.close());

let addressCounter = 0;
const nextAddress = () => `198.18.0.${++addressCounter}`;

function claim(body: unknown, address = nextAddress()) {
  return landing.app.request('/api/onboarding/claim', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function start(body: unknown, address = nextAddress()) {
  return landing.app.request('/api/onboarding/start', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
}

/** What the worker writes after a first purchase: keyed by the SHA-256 of landing's reference. */
async function onboarding(
  reference: string,
  password: string | null,
  expiresInMs = 3_600_000,
  key = sha256(reference),
) {
  await sql`INSERT INTO landing.onboardings (reference, provider, tenant_slug, admin_email, initial_password, expires_at)
    VALUES (${key}, 'stripe', 'acme', 'owner@acme.test', ${password}, ${new Date(Date.now() + expiresInMs)})`.execute(
    landing.db,
  );
}

async function row(reference: string) {
  const { rows } = await sql<{ initial_password: string | null; claimed_at: Date | null }>`
    SELECT initial_password, claimed_at FROM landing.onboardings WHERE reference = ${sha256(reference)}`.execute(
    landing.db,
  );
  return rows[0];
}

describe('POST /api/onboarding/start', () => {
  it('issues a random 256-bit reference, uncached, stored only as its SHA-256', async () => {
    const first = await start({ plan_code: 'business', email: 'owner@acme.test' });
    expect(first.status).toBe(201);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const { reference } = (await first.json()) as { reference: string };
    expect(reference).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(reference, 'base64url')).toHaveLength(32);
    const second = (await (await start({ plan_code: 'business' })).json()) as { reference: string };
    expect(second.reference).not.toBe(reference);
    const { rows } = await sql<Record<string, unknown>>`
      SELECT * FROM landing.onboarding_references WHERE reference_sha256 = ${sha256(reference)}`.execute(
      landing.db,
    );
    expect(rows).toEqual([
      expect.objectContaining({ plan_code: 'business', email: 'owner@acme.test' }),
    ]);
    const everything = await sql`SELECT * FROM landing.onboarding_references`.execute(landing.db);
    expect(JSON.stringify(everything.rows)).not.toContain(reference);
  });

  it.each([
    [{ plan_code: 'enterprise' }, 'plan_code', 'unknown_plan'],
    [{}, 'plan_code', undefined],
    [{ plan_code: 'business', email: 'not-an-address' }, 'email', undefined],
    [{ plan_code: 'business', reference: 'mine' }, '', undefined],
  ])('bad body %j → 400 requete_invalide', async (body, path, code) => {
    const response = await start(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ path, ...(code ? { code } : {}) }] },
    });
  });

  it('is throttled per address: the (N+1)th start of an hour → 429 with Retry-After', async () => {
    const address = nextAddress();
    for (let i = 0; i < 3; i++)
      expect((await start({ plan_code: 'business' }, address)).status).toBe(201);
    const refused = await start({ plan_code: 'business' }, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'limite_depassee' });
  });
});

const notFound = {
  code: 'introuvable',
  params: {},
  message: 'No onboarding to claim for this reference.',
};

describe('POST /api/onboarding/claim', () => {
  it('hands out the first login once, uncached, and erases the password in the same step', async () => {
    await onboarding('cs_test_first', 'Generated-Password-1');
    const first = await claim({ reference: 'cs_test_first' });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual({
      tenant: 'acme',
      email: 'owner@acme.test',
      password: 'Generated-Password-1',
      login_url: 'https://portal.example.test/api/v1/auth/login',
    });
    expect(await row('cs_test_first')).toEqual({
      initial_password: null,
      claimed_at: expect.any(Date),
    });

    const second = await claim({ reference: 'cs_test_first' });
    expect(second.status).toBe(404);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(await second.json()).toEqual(notFound);
  });

  it('a provider id claims nothing: an onboarding keyed by a checkout id (before wave 3) is 404', async () => {
    await onboarding('cs_test_checkout_id', 'Legacy-Password-5', 3_600_000, 'cs_test_checkout_id');
    const response = await claim({ reference: 'cs_test_checkout_id' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual(notFound);
  });

  it('answers password null when the portal gave none (a replayed provisioning)', async () => {
    await onboarding('cs_test_existing_user', null);
    const response = await claim({ reference: 'cs_test_existing_user' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ tenant: 'acme', password: null });
  });

  it('an expired reference → 404 like an unknown one; its row is not claimed', async () => {
    await onboarding('cs_test_expired', 'Old-Password-2', -1_000);
    const expired = await claim({ reference: 'cs_test_expired' });
    expect(expired.status).toBe(404);
    expect(await expired.json()).toEqual(notFound);
    expect(await row('cs_test_expired')).toMatchObject({ claimed_at: null });
    const unknown = await claim({ reference: 'cs_test_never_existed' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(notFound);
  });

  it('two concurrent claims: exactly one gets the password', async () => {
    await onboarding('cs_test_race', 'Race-Password-3');
    const responses = await Promise.all([
      claim({ reference: 'cs_test_race' }),
      claim({ reference: 'cs_test_race' }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 404]);
  });

  it.each([
    [{}, 'reference'],
    [{ reference: '' }, 'reference'],
    [{ reference: 'x'.repeat(201) }, 'reference'],
    [{ reference: 'cs_1', extra: true }, ''],
  ])('bad body %j → 400 requete_invalide', async (body, path) => {
    const response = await claim(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ path }] },
    });
  });

  it('throttles guessing per address: the (N+1)th claim of an hour → 429 with Retry-After, even for a valid reference', async () => {
    const address = nextAddress();
    for (let i = 0; i < 4; i++)
      expect((await claim({ reference: `cs_guess_${i}` }, address)).status).toBe(404);
    await onboarding('cs_test_after_guessing', 'Password-4');
    const refused = await claim({ reference: 'cs_test_after_guessing' }, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'limite_depassee' });
    expect(await row('cs_test_after_guessing')).toMatchObject({
      initial_password: 'Password-4',
      claimed_at: null,
    });
  });
});
