import { createHash } from 'node:crypto';
import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLanding, type TestLanding } from './harness';

let landing: TestLanding;
beforeAll(async () => {
  landing = await createTestLanding({
    PORTAL_URL: 'http://portal.internal:3000',
    CONSOLE_URL: 'https://console.example.test',
    TRUST_PROXY: 'true',
    ONBOARDING_CLAIM_RATE_LIMIT_PER_HOUR: '3',
  });
});
afterAll(() => landing.close());

let addressCounter = 0;
const nextAddress = () => `198.18.1.${++addressCounter}`;

function claimPage(reference: string, address = nextAddress()) {
  return landing.app.request('/onboarding', {
    method: 'POST',
    headers: {
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': address,
    },
    body: new URLSearchParams({ reference }).toString(),
  });
}

async function onboarding(reference: string, password: string | null) {
  await sql`INSERT INTO landing.onboardings (reference, provider, tenant_slug, admin_email, initial_password, expires_at)
    VALUES (${createHash('sha256').update(reference).digest('hex')}, 'stripe', 'acme', 'owner@acme.test', ${password}, ${new Date(Date.now() + 3_600_000)})`.execute(
    landing.db,
  );
}

describe('the onboarding page', () => {
  it('GET /onboarding?reference= prefills the form, uncached and kept out of search engines', async () => {
    const response = await landing.app.request('/onboarding?reference=cs_test_123');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    expect(html).toContain('<form method="post" action="/onboarding"');
    expect(html).toContain('value="cs_test_123"');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });

  it('shows the login e-mail and the password once, with the console link; the same claim again is refused', async () => {
    await onboarding('cs_test_page', 'Generated-Password-7');
    const first = await claimPage('cs_test_page');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await first.text();
    expect(html).toContain('<dd>owner@acme.test</dd>');
    expect(html).toContain('<dd class="password">Generated-Password-7</dd>');
    // The same words whether or not the e-mail had an account (the portal answers alike).
    expect(html).toContain(
      'If this e-mail already had an account with us, it keeps its own password',
    );
    expect(html).toContain('<dd>acme</dd>');
    expect(html).toContain('<a class="button" href="https://console.example.test/login">');
    const { rows } = await sql<{ initial_password: string | null }>`
      SELECT initial_password FROM landing.onboardings
      WHERE reference = ${createHash('sha256').update('cs_test_page').digest('hex')}`.execute(
      landing.db,
    );
    expect(rows).toEqual([{ initial_password: null }]);

    const again = await claimPage('cs_test_page');
    expect(again.status).toBe(404);
    const refused = await again.text();
    expect(refused).toContain('data-error-code="introuvable"');
    expect(refused).toContain('There is no account to claim for this reference');
    expect(refused).toContain('value="cs_test_page"');
    expect(refused).not.toContain('Generated-Password-7');
  });

  it('the API and the page share one claim: claimed by the page, the API answers 404', async () => {
    await onboarding('cs_test_shared', 'Generated-Password-8');
    expect((await claimPage('cs_test_shared')).status).toBe(200);
    const api = await landing.app.request('/api/onboarding/claim', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
      body: JSON.stringify({ reference: 'cs_test_shared' }),
    });
    expect(api.status).toBe(404);
  });

  it('no password to show (a replayed provisioning): the console link, and nothing says whether the account existed', async () => {
    await onboarding('cs_test_existing', null);
    const html = await (await claimPage('cs_test_existing')).text();
    expect(html).toContain('Log in with the password of this e-mail’s account.');
    expect(html).not.toContain('already had an account:');
    expect(html).not.toContain('<dt>Password</dt>');
  });

  it('an empty reference: 400 with the error next to the field', async () => {
    const response = await claimPage('   ');
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(
      '<p class="field-error" id="field-reference-error">Please fill this in.</p>',
    );
  });

  it('shares the API’s throttle per address: the fourth try in the hour is 429 with Retry-After', async () => {
    const address = nextAddress();
    for (let i = 0; i < 3; i++)
      expect((await claimPage(`cs_guess_${i}`, address)).status).toBe(404);
    const refused = await claimPage('cs_guess_3', address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('data-error-code="limite_depassee"');
  });
});
