import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLanding, type TestLanding } from './harness';

let landing: TestLanding;
beforeAll(async () => {
  landing = await createTestLanding({ TRUST_PROXY: 'true', FORM_RATE_LIMIT_PER_HOUR: '3' });
});
afterAll(() => landing.close());

let addressCounter = 0;
const nextAddress = () => `198.51.100.${++addressCounter}`;

/** What a browser sends when a person presses the form's button. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

function postForm(path: string, fields: [string, string][], address = nextAddress()) {
  return landing.app.request(path, {
    method: 'POST',
    headers: {
      accept: BROWSER_ACCEPT,
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': address,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

async function leadsFrom(email: string) {
  const { rows } = await sql<{
    kind: string;
    name: string;
    message: string | null;
    details: unknown;
  }>`
    SELECT kind, name, message, details FROM landing.leads WHERE email = ${email}`.execute(
    landing.db,
  );
  return rows;
}

const blank = (name: string): [string, string] => [name, ''];

describe('the contact and demo forms, posted by a browser', () => {
  it('a valid contact form: 303 to the thank-you page, the lead stored with its job', async () => {
    const response = await postForm('/api/contact', [
      ['name', 'Ada Lovelace'],
      ['email', 'ada.form@example.test'],
      blank('company'),
      blank('phone'),
      ['message', 'Call me, please.'],
      blank('website'),
    ]);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/contact/thanks');
    expect(await leadsFrom('ada.form@example.test')).toEqual([
      { kind: 'contact', name: 'Ada Lovelace', message: 'Call me, please.', details: {} },
    ]);
  });

  it('a valid demo form with ticked modules: 303 to its own thank-you page', async () => {
    const response = await postForm('/api/demo', [
      ['name', 'Grace Hopper'],
      ['email', 'grace.form@example.test'],
      ['company', 'Navy'],
      ['team_size', '12'],
      ['modules_wanted', 'sales'],
      ['modules_wanted', 'hr'],
      blank('preferred_date'),
      blank('message'),
      blank('website'),
    ]);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/demo/thanks');
    expect(await leadsFrom('grace.form@example.test')).toEqual([
      {
        kind: 'demo',
        name: 'Grace Hopper',
        message: null,
        details: { team_size: 12, modules_wanted: 'sales,hr' },
      },
    ]);
  });

  it('a refused form comes back with each error next to its field and what was typed kept', async () => {
    const response = await postForm('/api/contact', [
      ['name', 'Ada <Lovelace>'],
      ['email', 'not-an-address'],
      ['company', 'Analytical & Co'],
      blank('phone'),
      blank('message'),
      blank('website'),
    ]);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain('data-error-code="requete_invalide"');
    // Kept, escaped.
    expect(html).toContain('value="Ada &lt;Lovelace&gt;"');
    expect(html).toContain('value="not-an-address"');
    expect(html).toContain('value="Analytical &amp; Co"');
    // Each error beside its field, tied to it, listed in the summary with a link.
    expect(html).toMatch(
      /<input id="field-email" name="email" required="" aria-invalid="true" aria-describedby="field-email-error"[^>]*\/><p class="field-error" id="field-email-error">Enter an e-mail address, like name@example.com.<\/p>/,
    );
    expect(html).toMatch(
      /<textarea id="field-message" name="message" required="" aria-invalid="true" aria-describedby="field-message-error"[^>]*><\/textarea><p class="field-error" id="field-message-error">Please fill this in.<\/p>/,
    );
    expect(html).toContain('<a href="#field-email">Work e-mail: Enter an e-mail address');
    expect(html).not.toContain('id="field-name-error"');
    expect(await leadsFrom('not-an-address')).toEqual([]);
  });

  it('a refused demo form keeps its ticked modules and says which field is wrong', async () => {
    const response = await postForm('/api/demo', [
      ['name', 'Grace'],
      ['email', 'grace2@example.test'],
      blank('company'),
      ['team_size', 'twelve'],
      ['modules_wanted', 'crm'],
      ['modules_wanted', 'nonsense'],
      ['preferred_date', '2027-02-30'],
      blank('website'),
    ]);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('<input type="checkbox" name="modules_wanted" value="crm" checked=""/>');
    expect(html).toContain('<input type="checkbox" name="modules_wanted" value="sales"/>');
    for (const field of ['company', 'team_size', 'modules_wanted', 'preferred_date']) {
      expect(html).toContain(`id="field-${field}-error"`);
    }
    expect(html).toContain('value="twelve"');
    expect(html).toContain('value="2027-02-30"');
  });

  it('the honeypot: the same 303, nothing stored, the trap never echoed', async () => {
    const response = await postForm('/api/contact', [
      ['name', 'Bot'],
      ['email', 'bot.form@example.test'],
      ['message', 'Buy now'],
      ['website', 'http://spam.example'],
    ]);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/contact/thanks');
    expect(await leadsFrom('bot.form@example.test')).toEqual([]);

    const refused = await postForm('/api/contact', [['website', 'http://spam.example']]);
    expect(refused.status).toBe(400);
    expect(await refused.text()).not.toContain('spam.example');
  });

  it('past the hourly limit: 429 with Retry-After, the form kept, a message above it', async () => {
    const address = nextAddress();
    const fields: [string, string][] = [
      ['name', 'Eager'],
      ['email', 'eager@example.test'],
      ['message', 'Again'],
    ];
    for (let i = 0; i < 3; i++)
      expect((await postForm('/api/contact', fields, address)).status).toBe(303);
    const refused = await postForm('/api/contact', fields, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const html = await refused.text();
    expect(html).toContain('data-error-code="limite_depassee"');
    expect(html).toMatch(
      /Too many attempts from your address\. Please try again in \d+ minutes?\./,
    );
    expect(html).toContain('value="Eager"');
  });

  it('JSON clients keep their answers: 202 and the 400 error body', async () => {
    const json = (body: unknown) =>
      landing.app.request('/api/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
        body: JSON.stringify(body),
      });
    const ok = await json({ name: 'Jason', email: 'jason@example.test', message: 'Hi' });
    expect(ok.status).toBe(202);
    expect(await ok.json()).toEqual({ id: expect.any(String), status: 'received' });
    const bad = await json({ name: 'Jason', email: 'nope' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: 'requete_invalide',
      params: { issues: expect.arrayContaining([expect.objectContaining({ path: 'email' })]) },
    });
    // A urlencoded post from a script that does not ask for HTML gets JSON too.
    const scripted = await landing.app.request('/api/contact', {
      method: 'POST',
      headers: {
        accept: '*/*',
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': nextAddress(),
      },
      body: 'name=Curl&email=curl%40example.test&message=Hi',
    });
    expect(scripted.status).toBe(202);
  });
});
