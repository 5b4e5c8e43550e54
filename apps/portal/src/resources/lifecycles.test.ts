import { catalogue, type Resource } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../seed';
import { createTestPortal, session } from '../../test/harness';
import { populate } from '../../test/resources-harness';

/** Generated from the registry: every action tried from every state of every lifecycle. */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let headers: Record<string, string>;
let refs: Map<string, string[]>;
beforeAll(async () => {
  // Hundreds of session requests a minute (SPEC §16 limits sessions and counts them toward the
  // tenant's ceiling): lifted, so 429s do not hide the lifecycles.
  portal = await createTestPortal({ SESSION_RATE_LIMIT_PER_MINUTE: '1000000' });
  const tenant = await portal.provisionTenant('enterprise');
  await portal.tdb.pool.query('UPDATE tenants SET rate_limit_per_minute = 1000000 WHERE id = $1', [
    tenant.id,
  ]);
  headers = {
    ...session((await portal.login(tenant.adminEmail)).access_token, tenant.slug),
    'content-type': 'application/json',
  };
  refs = await populate(portal, catalogue, headers, 1);
}, 180_000);
afterAll(() => portal.tdb.close());

/** Shortest list of actions from the initial state to `target`. */
function pathTo(resource: Resource, target: string): string[] {
  const lifecycle = resource.lifecycle!;
  const queue: [string, string[]][] = [[lifecycle.initial, []]];
  const seen = new Set([lifecycle.initial]);
  while (queue.length) {
    const [state, path] = queue.shift()!;
    if (state === target) return path;
    for (const [action, spec] of Object.entries(lifecycle.actions)) {
      if ((spec.from as readonly string[]).includes(state) && !seen.has(spec.to)) {
        seen.add(spec.to);
        queue.push([spec.to, [...path, action]]);
      }
    }
  }
  throw new Error(`${resource.name}: ${target} unreachable`);
}

const act = (resource: Resource, id: string, action: string) =>
  portal
    .post(`/api/v1/${resource.path}/${id}/${action.replace(/_/g, '-')}`, {}, headers)
    .then(portal.json);

async function eventsOf(id: string): Promise<string[]> {
  const { rows } = await portal.tdb.pool.query(
    'SELECT type FROM events WHERE resource_id = $1 ORDER BY id',
    [id],
  );
  return rows.map((r) => r.type);
}

const withLifecycle = catalogue.filter((r) => r.lifecycle);

/**
 * A sample body for the walk. The periods and fiscal years it closes lie in 2001: a closed
 * period takes no more postings (SPEC §17), and the documents the walk posts are dated 2026.
 */
function walkBody(resource: Resource, n: number) {
  const body = sampleBody(resource, n, refs);
  if (resource.name === 'accounting_period' || resource.name === 'fiscal_year')
    Object.assign(body, { start_date: '2001-01-01', end_date: '2001-12-31' });
  return body;
}

describe('lifecycles', () => {
  it('the sales order lifecycle is the SPEC’s', () => {
    const so = catalogue.find((r) => r.name === 'sales_order')!;
    expect(so.lifecycle!.initial).toBe('brouillon');
    expect(
      Object.fromEntries(
        Object.entries(so.lifecycle!.actions).map(([a, s]) => [a, [[...s.from].sort(), s.to]]),
      ),
    ).toEqual({
      confirm: [['brouillon'], 'confirme'],
      deliver: [['confirme'], 'livre'],
      invoice: [['livre'], 'facture'],
      cancel: [['brouillon', 'confirme'], 'annule'],
    });
  });

  for (const resource of withLifecycle) {
    it(`${resource.name}: allowed transitions record their events, forbidden ones change nothing`, async () => {
      const actions = Object.entries(resource.lifecycle!.actions);
      let n = 10;
      // States only allocations reach (SPEC §17: settlement derives them, no action sets them)
      // are walked by src/books/settlement.test.ts, which allocates, un-allocates and cancels.
      const settlement = resource.lifecycle!.settlement;
      const settled = new Set<string>(settlement ? [settlement.partial, settlement.full] : []);
      for (const state of resource.states.filter((s) => !settled.has(s))) {
        for (const [action, spec] of actions) {
          const created = await portal
            .post(`/api/v1/${resource.path}`, walkBody(resource, n++), headers)
            .then(portal.json);
          expect(created.status).toBe(201);
          const id = created.body.id as string;
          for (const step of pathTo(resource, state)) {
            const r = await act(resource, id, step);
            expect(r.status, `${resource.name} → ${step} ${JSON.stringify(r.body)}`).toBe(200);
          }
          const before = await portal
            .request(`/api/v1/${resource.path}/${id}`, { headers })
            .then(portal.json);
          const eventsBefore = await eventsOf(id);

          const res = await act(resource, id, action);
          const label = `${resource.name}: ${action} from ${state}`;
          if ((spec.from as readonly string[]).includes(state)) {
            expect(res.status, `${label} ${JSON.stringify(res.body)}`).toBe(200);
            expect(res.body.status, label).toBe(spec.to);
            expect(res.headers.get('etag'), label).toBe(
              `"${Number(before.headers.get('etag')!.replace(/"/g, '')) + 1}"`,
            );
            // SPEC §7's status_changed where the catalogue has one, otherwise the action's own
            // generic event (§12); approval steps beside it.
            const expected = [
              resource.events?.includes('status_changed')
                ? `${resource.name}.status_changed`
                : `${resource.name}.${action}`,
              spec.emits ? `${resource.name}.${spec.emits}` : null,
            ].filter(Boolean);
            expect((await eventsOf(id)).slice(eventsBefore.length).sort(), label).toEqual(
              expected.sort(),
            );
          } else {
            expect(res.status, label).toBe(409);
            expect(res.body, label).toMatchObject({
              code: 'transition_invalide',
              params: { from: state, action },
            });
            const after = await portal
              .request(`/api/v1/${resource.path}/${id}`, { headers })
              .then(portal.json);
            expect(after.body, label).toEqual(before.body);
            expect(await eventsOf(id), label).toEqual(eventsBefore);
          }
        }
      }
    });
  }

  it('the status_changed payload carries the record, the previous status and the action', async () => {
    const so = catalogue.find((r) => r.name === 'sales_order')!;
    const created = await portal
      .post('/api/v1/sales-orders', sampleBody(so, 1, refs), headers)
      .then(portal.json);
    await act(so, created.body.id, 'confirm');
    const { rows } = await portal.tdb.pool.query(
      "SELECT data FROM events WHERE resource_id = $1 AND type = 'sales_order.status_changed'",
      [created.body.id],
    );
    expect(rows[0].data).toMatchObject({
      previous_status: 'brouillon',
      action: 'confirm',
      object: { id: created.body.id, status: 'confirme' },
    });
  });
});
