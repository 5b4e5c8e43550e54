import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, INTERNAL_KEY } from '../../test/harness';

const PATH = '/api/v1/internal/leads';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(() => portal.tdb.close());

const send = (body: unknown, key: string | null = INTERNAL_KEY) =>
  portal.post(PATH, body, key === null ? {} : { 'x-api-key': key }).then(portal.json);

const demo = () => ({
  id: randomUUID(),
  kind: 'demo',
  name: 'Ada Lovelace',
  email: 'ada@analytical.test',
  company: 'Analytical Engines',
  phone: '+44 20 7946 0000',
  message: 'We would like a demo of purchasing.',
  details: { team_size: 25, modules: 'purchasing,inventory', urgent: true, budget: null },
  submitted_at: '2026-11-23T09:30:00Z',
});

async function storedRows(id: string) {
  return portal.tdb.db.selectFrom('platform_leads').selectAll().where('id', '=', id).execute();
}

async function countLeads() {
  const { n } = await portal.tdb.db
    .selectFrom('platform_leads')
    .select((e) => e.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

describe('POST /api/v1/internal/leads', () => {
  it('stores a lead: 201 with the lead and when it was received', async () => {
    const lead = demo();
    const res = await send(lead);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ...lead,
      submitted_at: '2026-11-23T09:30:00.000Z',
      received_at: expect.any(String),
    });
    const rows = await storedRows(lead.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'demo', email: lead.email, details: lead.details });
  });

  it('stores a minimal contact request, optional fields as null', async () => {
    const lead = {
      id: randomUUID(),
      kind: 'contact',
      name: 'Grace',
      email: 'grace@navy.test',
      submitted_at: '2026-11-23T09:31:00+01:00',
    };
    const res = await send(lead);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      company: null,
      phone: null,
      message: null,
      details: {},
      submitted_at: '2026-11-23T08:31:00.000Z',
    });
  });

  it('answers a replay of the same id with 200 and the stored row, writing nothing', async () => {
    const lead = demo();
    const first = await send(lead);
    const replay = await send({ ...lead, name: 'Someone else', message: 'changed' });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    const rows = await storedRows(lead.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toBe('Ada Lovelace');
  });

  it('stores concurrent deliveries of one lead once: one 201, the rest 200', async () => {
    const lead = demo();
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(lead)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(await storedRows(lead.id)).toHaveLength(1);
  });

  it('needs the internal key: missing is non_authentifie, wrong is cle_api_invalide', async () => {
    const lead = demo();
    const missing = await send(lead, null);
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('non_authentifie');
    const wrong = await send(lead, `${INTERNAL_KEY}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('cle_api_invalide');
    expect(await storedRows(lead.id)).toEqual([]);
  });

  const bad: Array<[string, Record<string, unknown>]> = [
    ['a missing id', { id: undefined }],
    ['an id that is not a UUID', { id: 'lead-1' }],
    ['an unknown kind', { kind: 'newsletter' }],
    ['an empty name', { name: '  ' }],
    ['a bad e-mail', { email: 'not-an-email' }],
    ['a timestamp without offset', { submitted_at: '2026-11-23 09:30' }],
    ['a nested detail', { details: { modules: ['sales'] } }],
    ['a message over 5000 characters', { message: 'x'.repeat(5001) }],
  ];
  for (const [what, change] of bad) {
    it(`refuses ${what}: 400 requete_invalide, nothing stored`, async () => {
      const before = await countLeads();
      const res = await send({ ...demo(), ...change });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
      expect(res.body.params.issues.length).toBeGreaterThan(0);
      expect(await countLeads()).toBe(before);
    });
  }

  it('refuses a NUL character in a value: 400 requete_invalide', async () => {
    const lead = { ...demo(), message: 'hello\u0000world' };
    const res = await send(lead);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('requete_invalide');
    expect(await storedRows(lead.id)).toEqual([]);
  });
});
