import { randomUUID } from 'node:crypto';
import { catalogue, type Resource } from '@erp/contract';
import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../seed';
import { createTestPortal, session } from '../../test/harness';
import { populate } from '../../test/resources-harness';

/**
 * References are checked wherever they are stored, generated from the registry: every
 * reference held inside line items, and every reference to a user (a member of the tenant).
 * The database refuses them too, so no path around the API can store them either.
 */
const lineReferences = catalogue.flatMap((resource) =>
  Object.entries(resource.fields).flatMap(([field, spec]) =>
    spec.type === 'lines'
      ? Object.entries(spec.fields).flatMap(([key, line]) =>
          line.type === 'reference' ? [{ resource, field, key, target: line.resource }] : [],
        )
      : [],
  ),
);
const userReferences = catalogue.flatMap((resource) =>
  Object.entries(resource.fields).flatMap(([field, spec]) =>
    spec.type === 'reference' && spec.resource === 'user' ? [{ resource, field }] : [],
  ),
);
const label = (r: { resource: Resource; field: string; key?: string }) =>
  `${r.resource.path} ${r.field}${r.key ? `[].${r.key}` : ''}`;

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let a: Awaited<ReturnType<typeof portal.provisionTenant>>;
let b: Awaited<ReturnType<typeof portal.provisionTenant>>;
let headersB: Record<string, string>;
let refsA: Map<string, string[]>;
let refsB: Map<string, string[]>;

beforeAll(async () => {
  // Hundreds of session requests a minute (SPEC §16 limits sessions and counts them toward the
  // tenant's ceiling): lifted, so 429s do not hide the references.
  portal = await createTestPortal({ SESSION_RATE_LIMIT_PER_MINUTE: '1000000' });
  a = await portal.provisionTenant('enterprise');
  b = await portal.provisionTenant('enterprise');
  await portal.tdb.pool.query(
    'UPDATE tenants SET rate_limit_per_minute = 1000000 WHERE id = ANY($1::uuid[])',
    [[a.id, b.id]],
  );
  const headersA = {
    ...session((await portal.login(a.adminEmail)).access_token, a.slug),
    'content-type': 'application/json',
  };
  headersB = {
    ...session((await portal.login(b.adminEmail)).access_token, b.slug),
    'content-type': 'application/json',
  };
  refsA = await populate(portal, catalogue, headersA, 1, [a.adminId]);
  refsB = await populate(portal, catalogue, headersB, 1, [b.adminId]);
}, 120_000);
afterAll(() => portal.tdb.close());

const send = (method: string, path: string, body?: unknown) =>
  portal
    .request(path, {
      method,
      headers: headersB,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    .then(portal.json);

async function rowsOfB(resource: Resource): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM ${sql.table(resource.table)} WHERE tenant_id = ${b.id}
  `.execute(portal.tdb.db);
  return rows[0]!.n;
}

/** A valid create body of tenant B with three lines, the line `index` naming `id` under `key`. */
function bodyWithLine(ref: (typeof lineReferences)[number], index: number, id: string) {
  const body = sampleBody(ref.resource, 2, refsB);
  const lines = body[ref.field] as Record<string, unknown>[];
  expect(lines.length).toBeGreaterThan(index);
  lines[index] = { ...lines[index], [ref.key]: id };
  return body;
}

const refused = (path: string) => ({
  status: 400,
  body: expect.objectContaining({
    code: 'requete_invalide',
    params: { issues: [expect.objectContaining({ location: 'json', path, code: 'not_found' })] },
  }),
});

describe('references inside line items', () => {
  it('covers every lines field of the registry that holds references', () => {
    // The first catalogue's at least; every resource declared later is covered the same way.
    expect(lineReferences.map(label)).toEqual(
      expect.arrayContaining([
        'credit-notes lines[].product_id',
        'deliveries lines[].product_id',
        'expense-reports lines[].product_id',
        'goods-receipts lines[].product_id',
        'invoices lines[].product_id',
        'production-orders components[].product_id',
        'purchase-orders lines[].product_id',
        'quotes lines[].product_id',
        'sales-orders lines[].product_id',
        'supplier-invoices lines[].product_id',
      ]),
    );
  });

  it.each(lineReferences.map((r) => [label(r), r] as const))(
    "%s: another tenant's record or an unknown id is refused, naming the line; nothing is written",
    async (_, ref) => {
      const before = await rowsOfB(ref.resource);
      const path = `/api/v1/${ref.resource.path}`;
      const foreign = refsA.get(ref.target)![0]!;
      const res = await send('POST', path, bodyWithLine(ref, 2, foreign));
      expect({ status: res.status, body: res.body }).toEqual(refused(`${ref.field}.2.${ref.key}`));
      const unknown = await send('POST', path, bodyWithLine(ref, 1, randomUUID()));
      expect({ status: unknown.status, body: unknown.body }).toEqual(
        refused(`${ref.field}.1.${ref.key}`),
      );
      expect(await rowsOfB(ref.resource)).toBe(before);
    },
  );

  it.each(lineReferences.map((r) => [label(r), r] as const))(
    '%s: a record of the tenant is accepted; a patch with a bad line is refused and changes nothing',
    async (_, ref) => {
      const path = `/api/v1/${ref.resource.path}`;
      const own = refsB.get(ref.target)![0]!;
      const created = await send('POST', path, bodyWithLine(ref, 0, own));
      expect(created.status).toBe(201);
      expect(created.body[ref.field][0][ref.key]).toBe(own);

      const record = `${path}/${created.body.id}`;
      const lines = structuredClone(created.body[ref.field]) as Record<string, unknown>[];
      lines[lines.length - 1]![ref.key] = refsA.get(ref.target)![0]!;
      const patched = await send('PATCH', record, { [ref.field]: lines });
      expect({ status: patched.status, body: patched.body }).toEqual(
        refused(`${ref.field}.${lines.length - 1}.${ref.key}`),
      );
      const after = await send('GET', record);
      expect(after.body).toEqual(created.body);
    },
  );

  it.each(lineReferences.map((r) => [label(r), r] as const))(
    '%s: the database refuses a line naming another tenant’s record, whoever writes it',
    async (_, ref) => {
      const created = await send(
        'POST',
        `/api/v1/${ref.resource.path}`,
        bodyWithLine(ref, 0, refsB.get(ref.target)![0]!),
      );
      expect(created.status).toBe(201);
      const lines = structuredClone(created.body[ref.field]) as Record<string, unknown>[];
      lines[0]![ref.key] = refsA.get(ref.target)![0]!;
      // A number of its own: a resource with two references in its lines runs this twice.
      const copy = {
        id: randomUUID(),
        ...(ref.resource.numbering ? { number: `X-${randomUUID()}` } : {}),
      };
      // As the application role with tenant B set: a copy of B's record, and an update of it.
      const asApp = (statement: ReturnType<typeof sql>) =>
        portal.tdb.db.transaction().execute(async (trx) => {
          await sql`SELECT set_config('role', 'erp_app', true), set_config('app.tenant_id', ${b.id}, true)`.execute(
            trx,
          );
          await statement.execute(trx);
        });
      const table = sql.table(ref.resource.table);
      await expect(
        asApp(sql`
          INSERT INTO ${table}
          SELECT (jsonb_populate_record(NULL::${table}, to_jsonb(t) || ${JSON.stringify({ ...copy, [ref.field]: lines })}::jsonb)).*
          FROM ${table} t WHERE t.id = ${created.body.id}
        `),
      ).rejects.toMatchObject({ code: '23503' });
      await expect(
        asApp(
          sql`UPDATE ${table} SET ${sql.ref(ref.field)} = ${JSON.stringify(lines)}::jsonb WHERE id = ${created.body.id}`,
        ),
      ).rejects.toMatchObject({ code: '23503' });
      // The same copy with its own lines goes in: what was refused is the reference alone.
      await asApp(sql`
        INSERT INTO ${table}
        SELECT (jsonb_populate_record(NULL::${table}, to_jsonb(t) || ${JSON.stringify(copy)}::jsonb)).*
        FROM ${table} t WHERE t.id = ${created.body.id}
      `);
    },
  );

  it.each(lineReferences.map((r) => [label(r), r] as const))(
    '%s: a record named on a line cannot be deleted (409 referenced), like a top-level reference',
    async (_, ref) => {
      const target = catalogue.find((r) => r.name === ref.target)!;
      const fresh = await send('POST', `/api/v1/${target.path}`, sampleBody(target, 5, refsB));
      expect(fresh.status).toBe(201);
      const created = await send(
        'POST',
        `/api/v1/${ref.resource.path}`,
        bodyWithLine(ref, 1, fresh.body.id),
      );
      expect(created.status).toBe(201);
      const res = await send('DELETE', `/api/v1/${target.path}/${fresh.body.id}`);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 409,
        body: expect.objectContaining({
          code: 'conflit',
          params: { reason: 'referenced', referenced_by: ref.resource.table },
        }),
      });
      expect((await send('GET', `/api/v1/${target.path}/${fresh.body.id}`)).status).toBe(200);
    },
  );
});

describe('references to users', () => {
  it('covers every user reference of the registry', () => {
    expect(userReferences.map(label)).toEqual(
      expect.arrayContaining(['employees user_id', 'leads owner_id']),
    );
  });

  it.each(userReferences.map((r) => [label(r), r] as const))(
    '%s: a user who is not a member of the tenant is refused; a member is accepted',
    async (_, ref) => {
      const path = `/api/v1/${ref.resource.path}`;
      const before = await rowsOfB(ref.resource);
      for (const outsider of [a.adminId, randomUUID()]) {
        const res = await send('POST', path, {
          ...sampleBody(ref.resource, 1, refsB),
          [ref.field]: outsider,
        });
        expect({ status: res.status, body: res.body }).toEqual(refused(ref.field));
      }
      expect(await rowsOfB(ref.resource)).toBe(before);
      const created = await send('POST', path, {
        ...sampleBody(ref.resource, 1, refsB),
        [ref.field]: b.adminId,
      });
      expect(created.status).toBe(201);
      expect(created.body[ref.field]).toBe(b.adminId);
      const patched = await send('PATCH', `${path}/${created.body.id}`, { [ref.field]: a.adminId });
      expect({ status: patched.status, body: patched.body }).toEqual(refused(ref.field));
      expect((await send('GET', `${path}/${created.body.id}`)).body).toEqual(created.body);
    },
  );

  it('removing a member unlinks the records naming them (new version), and they can no longer be named', async () => {
    const member = await portal.addUser(b, ['crm:editor', 'hr:editor']);
    const records = [];
    for (const ref of userReferences) {
      const created = await send('POST', `/api/v1/${ref.resource.path}`, {
        ...sampleBody(ref.resource, 1, refsB),
        [ref.field]: member.id,
      });
      expect(created.status).toBe(201);
      records.push({ ref, created });
    }
    expect((await send('DELETE', `/api/v1/settings/users/${member.id}`)).status).toBe(204);
    for (const { ref, created } of records) {
      const path = `/api/v1/${ref.resource.path}/${created.body.id}`;
      const res = await portal.request(path, { headers: headersB });
      const after = await portal.json(res);
      expect(after.body).toEqual({
        ...created.body,
        [ref.field]: null,
        updated_at: expect.any(String),
      });
      expect(res.headers.get('etag')).toBe('"2"');
      const again = await send('POST', `/api/v1/${ref.resource.path}`, {
        ...sampleBody(ref.resource, 1, refsB),
        [ref.field]: member.id,
      });
      expect({ status: again.status, body: again.body }).toEqual(refused(ref.field));
    }
  });
});
