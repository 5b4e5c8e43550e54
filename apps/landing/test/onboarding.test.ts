import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLanding, type TestLanding } from './harness';

let landing: TestLanding;
beforeAll(async () => {
  landing = await createTestLanding({
    PORTAL_URL: 'https://portal.example.test/',
    TRUST_PROXY: 'true',
    ONBOARDING_CLAIM_RATE_LIMIT_PER_HOUR: '4',
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

/** What the worker writes after a first purchase. */
async function onboarding(reference: string, password: string | null, expiresInMs = 3_600_000) {
  await sql`INSERT INTO landing.onboardings (reference, provider, tenant_slug, admin_email, initial_password, expires_at)
    VALUES (${reference}, 'stripe', 'acme', 'owner@acme.test', ${password}, ${new Date(Date.now() + expiresInMs)})`.execute(
    landing.db,
  );
}

async function row(reference: string) {
  const { rows } = await sql<{ initial_password: string | null; claimed_at: Date | null }>`
    SELECT initial_password, claimed_at FROM landing.onboardings WHERE reference = ${reference}`.execute(
    landing.db,
  );
  return rows[0];
}

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

  it('answers password null for an existing user (no generated password)', async () => {
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
