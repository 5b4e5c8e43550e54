import { catalogue } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../seed';
import { createTestPortal, session } from '../../test/harness';
import { createSample, populate } from '../../test/resources-harness';

/**
 * Generated from the registry: every resource's create, update and delete records its event
 * in the feed (SPEC §12), with the record as the API returned it (the last state for a
 * delete), and a refused change records none. Actions are covered by lifecycles.test.ts.
 */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let headers: Record<string, string>;
let refs: Map<string, string[]>;
beforeAll(async () => {
  portal = await createTestPortal();
  const tenant = await portal.provisionTenant('enterprise');
  headers = {
    ...session((await portal.login(tenant.adminEmail)).access_token, tenant.slug),
    'content-type': 'application/json',
  };
  refs = await populate(portal, catalogue, headers, 1);
}, 120_000);
afterAll(() => portal.tdb.close());

async function eventsOf(id: string) {
  const { rows } = await portal.tdb.pool.query<{ type: string; data: { object: unknown } }>(
    'SELECT type, data FROM events WHERE resource_id = $1 ORDER BY recorded_at, id',
    [id],
  );
  return rows;
}

describe('every change of every resource is an event', { timeout: 300_000 }, () => {
  it(`create, update and delete record <resource>.created|updated|deleted (${catalogue.length} resources)`, async () => {
    let n = 100;
    for (const resource of catalogue) {
      const path = `/api/v1/${resource.path}`;
      const created = await createSample(portal, resource, n++, refs, headers);
      expect(created.status, resource.name).toBe(201);
      const id = created.body.id as string;
      const patched = await portal
        .request(`${path}/${id}`, { method: 'PATCH', headers, body: '{}' })
        .then(portal.json);
      expect(patched.status, resource.name).toBe(200);
      const deleted = await portal.request(`${path}/${id}`, { method: 'DELETE', headers });
      expect(deleted.status, resource.name).toBe(204);
      expect(await eventsOf(id), resource.name).toEqual([
        { type: `${resource.name}.created`, data: { object: created.body } },
        { type: `${resource.name}.updated`, data: { object: patched.body } },
        { type: `${resource.name}.deleted`, data: { object: patched.body } },
      ]);
    }
  });

  it('a refused change records nothing', async () => {
    const so = catalogue.find((r) => r.name === 'sales_order')!;
    const created = await portal
      .post('/api/v1/sales-orders', sampleBody(so, 1, refs), headers)
      .then(portal.json);
    const id = created.body.id as string;
    // Confirmed orders are not editable: PATCH and DELETE are refused and leave no event.
    expect((await portal.post(`/api/v1/sales-orders/${id}/confirm`, {}, headers)).status).toBe(200);
    const stale = await portal.request(`/api/v1/sales-orders/${id}`, {
      method: 'PATCH',
      headers,
      body: '{}',
    });
    expect(stale.status).toBe(409);
    expect(
      (await portal.request(`/api/v1/sales-orders/${id}`, { method: 'DELETE', headers })).status,
    ).toBe(409);
    expect((await eventsOf(id)).map((e) => e.type)).toEqual([
      'sales_order.created',
      'sales_order.status_changed',
    ]);
  });
});
