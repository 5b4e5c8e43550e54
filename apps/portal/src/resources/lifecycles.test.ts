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
  stock = await stockForTheWalk();
}, 180_000);

/**
 * What the goods' actions need to run (SPEC §18): a warehouse with two internal locations (the
 * first by code its main one), a second warehouse to transfer to, and stock of the sample
 * product at the first (an adjustment, validated).
 */
let stock: { warehouse: string; main: string; other: string; second: string };
async function stockForTheWalk() {
  const make = async (path: string, body: Record<string, unknown>) => {
    const res = await portal.post(`/api/v1/${path}`, body, headers).then(portal.json);
    if (res.status !== 201) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const warehouse = await make('warehouses', { code: 'WALK-1', name: 'Walk', active: true });
  const second = await make('warehouses', { code: 'WALK-2', name: 'Walk 2', active: true });
  const location = (code: string, warehouse_id: string) =>
    make('stock-locations', { code, name: code, warehouse_id, usage: 'internal', is_scrap: false });
  const main = await location('0-WALK-1/A', warehouse);
  const other = await location('0-WALK-1/B', warehouse);
  await location('0-WALK-2/A', second);
  const adjustment = await make('stock-adjustments', {
    warehouse_id: warehouse,
    adjustment_date: '2026-03-01',
    reason: 'found',
    lines: refs.get('product')!.map((product_id) => ({ product_id, quantity: '100000' })),
  });
  const validated = await act(
    catalogue.find((r) => r.name === 'stock_adjustment')!,
    adjustment,
    'validate',
  );
  if (validated.status !== 200) throw new Error(JSON.stringify(validated.body));
  return { warehouse, main, other, second };
}
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
  return withGoods(resource, body);
}

/**
 * A sample that the goods' rules take (SPEC §18): its warehouses the walk's (stock is there),
 * its stock places their main locations (a stock move from one internal location to the
 * other), quantities other than zero, and what a draft needs before it goes on.
 */
function withGoods(resource: Resource, body: Record<string, unknown>) {
  const set = (field: string, value: unknown) => {
    if (field in resource.fields) body[field] = value;
  };
  set('warehouse_id', stock.warehouse);
  set('from_warehouse_id', stock.warehouse);
  set('to_warehouse_id', stock.second);
  set('supplier_invoice_number', `F-${body.supplier_invoice_number ?? 'WALK'}`);
  for (const effect of resource.stock ?? []) {
    for (const place of [effect.from, effect.to]) {
      if (place === 'outside') continue;
      if ('warehouse' in place) {
        if (place.location) body[place.location] = null;
        for (const line of (body.lines as Record<string, unknown>[]) ?? [])
          if (place.lineLocation) line[place.lineLocation] = null;
      }
    }
    if (resource.name === 'stock_move')
      Object.assign(body, {
        from_location_id: stock.main,
        to_location_id: stock.other,
        quantity: '1',
      });
    for (const line of (body.lines as Record<string, unknown>[]) ?? [])
      if (Number(line.quantity) === 0) line.quantity = '1';
  }
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
