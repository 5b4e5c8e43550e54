import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLanding, type TestLanding } from './harness';

let landing: TestLanding;
beforeAll(async () => {
  landing = await createTestLanding({ TRUST_PROXY: 'true', FORM_RATE_LIMIT_PER_HOUR: '1000' });
});
afterAll(() => landing.close());

let addressCounter = 0;
/** Each test its own client address, so the hourly buckets do not mix. */
const nextAddress = () => `198.51.100.${++addressCounter}`;

function postJson(path: string, body: unknown, address = nextAddress()) {
  return landing.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.0.1, ${address}` },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function postForm(path: string, fields: [string, string][], address = nextAddress()) {
  return landing.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    body: new URLSearchParams(fields).toString(),
  });
}

async function storedLead(id: string) {
  const { rows } =
    await sql`SELECT kind, name, email, company, phone, message, details, client_address
    FROM landing.leads WHERE id = ${id}`.execute(landing.db);
  // The public jobs view hides payloads; the queue's own tables hold them.
  const { rows: jobs } =
    await sql`SELECT t.identifier AS task_identifier, j.payload, j.key, j.max_attempts
    FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE j.key = ${`lead:${id}`}`.execute(landing.db);
  return { lead: rows[0], jobs };
}

const contact = { name: 'Ada Lovelace', email: 'ada@example.test', message: 'Call me, please.' };

describe('POST /api/contact and /api/demo: stored with their forwarding job', () => {
  it('stores a JSON contact request and enqueues landing_forward_lead in the same step', async () => {
    const response = await postJson(
      '/api/contact',
      { ...contact, company: 'Analytical', phone: '+33 1 23 45 67 89' },
      '203.0.113.7',
    );
    expect(response.status).toBe(202);
    const body = (await response.json()) as { id: string; status: string };
    expect(body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'received' });
    expect(await storedLead(body.id)).toEqual({
      lead: {
        kind: 'contact',
        name: 'Ada Lovelace',
        email: 'ada@example.test',
        company: 'Analytical',
        phone: '+33 1 23 45 67 89',
        message: 'Call me, please.',
        details: {},
        client_address: '203.0.113.7',
      },
      jobs: [
        {
          task_identifier: 'landing_forward_lead',
          payload: { lead_id: body.id },
          key: `lead:${body.id}`,
          max_attempts: 25,
        },
      ],
    });
  });

  it('stores a plain HTML demo form (urlencoded, one field per ticked module, blanks ignored)', async () => {
    const response = await postForm('/api/demo', [
      ['name', 'Grace Hopper'],
      ['email', 'grace@example.test'],
      ['company', 'Navy'],
      ['phone', ''],
      ['team_size', '25'],
      ['modules_wanted', 'sales'],
      ['modules_wanted', 'crm'],
      ['preferred_date', '2026-12-01'],
      ['message', ''],
      ['website', ''],
    ]);
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as { id: string };
    const { lead, jobs } = await storedLead(id);
    expect(lead).toMatchObject({
      kind: 'demo',
      company: 'Navy',
      phone: null,
      message: null,
      details: { team_size: 25, modules_wanted: 'sales,crm', preferred_date: '2026-12-01' },
    });
    expect(jobs).toHaveLength(1);
  });

  it('accepts a demo form with a single module and a JSON contact without optional fields', async () => {
    const demo = await postForm('/api/demo', [
      ['name', 'Linus'],
      ['email', 'linus@example.test'],
      ['company', 'Kernel'],
      ['modules_wanted', 'inventory'],
    ]);
    expect(demo.status).toBe(202);
    const { id } = (await demo.json()) as { id: string };
    expect((await storedLead(id)).lead).toMatchObject({ details: { modules_wanted: 'inventory' } });
    expect((await postJson('/api/contact', contact)).status).toBe(202);
  });
});
