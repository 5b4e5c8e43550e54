import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketKey } from '../src/http/throttle';
import { createTestLanding, type TestLanding } from './harness';

/** SPEC §3: every per-address throttle counts an IPv6 client by its /64, an IPv4 one by its address. */
let landing: TestLanding;
beforeAll(async () => {
  landing = await createTestLanding({
    TRUST_PROXY: 'true',
    FORM_RATE_LIMIT_PER_HOUR: '2',
    ONBOARDING_CLAIM_RATE_LIMIT_PER_HOUR: '2',
  });
});
afterAll(() => landing.close());

const contact = (address: string) =>
  landing.app.request('/api/contact', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ name: 'Ada', email: 'ada@example.test', message: 'Hello' }),
  });
const claim = (address: string) =>
  landing.app.request('/api/onboarding/claim', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ reference: 'no-such-reference-0123456789' }),
  });

describe('landing throttles per /64', () => {
  it('forms: two addresses of one /64 share the budget, another /64 has its own', async () => {
    expect((await contact('2001:db8:aa:1::1')).status).toBe(202);
    expect((await contact('2001:db8:aa:1:ffff:ffff:ffff:fffe')).status).toBe(202);
    const refused = await contact('2001:DB8:AA:1:0:0:0:99');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'limite_depassee', params: { limit: 2 } });
    expect((await contact('2001:db8:aa:2::1')).status).toBe(202);
  });

  it('forms: an IPv4-mapped IPv6 address is its IPv4 address', async () => {
    expect((await contact('198.51.100.77')).status).toBe(202);
    expect((await contact('::ffff:198.51.100.77')).status).toBe(202);
    expect((await contact('198.51.100.77')).status).toBe(429);
    expect((await contact('198.51.100.78')).status).toBe(202);
  });

  it('onboarding claims: the same /64 shares the budget', async () => {
    const answers = [];
    for (const host of ['1', '2', '3'])
      answers.push((await claim(`2001:db8:bb:7::${host}`)).status);
    expect(answers[2]).toBe(429);
    expect(answers.slice(0, 2)).not.toContain(429);
    expect((await claim('2001:db8:bb:8::1')).status).not.toBe(429);
  });

  it('bucket keys: the address part by /64, the scope kept', () => {
    expect(bucketKey('landing:form:2001:db8:aa:1::1')).toBe('landing:form:2001:db8:aa:1::/64');
    expect(bucketKey('landing:claim:::ffff:10.0.0.1')).toBe('landing:claim:10.0.0.1');
    expect(bucketKey('landing:form:10.0.0.1')).toBe('landing:form:10.0.0.1');
  });
});
