import { catalogue, USER } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, session } from '../test/harness';
import { DEMO_ADMIN_EMAIL, seedDemo } from './demo';
import { seedDemoRecords } from './demo-records';
import { OPENING_INVENTORY } from './goods';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(() => portal.tdb.close());

// The whole catalogue's demo data, twice: seconds alone, minutes on a busy 2-core machine.
describe('demo seed', { timeout: 180_000 }, () => {
  it('gives the demo admin a non-empty list on every resource, with a mix of statuses; running it twice changes nothing', async () => {
    const demo = await seedDemo(portal.tdb.db, 'demo password 123');
    const created = await seedDemoRecords(portal.deps.tenantDb, demo.tenantId, catalogue, 6, [
      demo.adminId,
    ]);
    expect(created).toBe(catalogue.length * 6);
    expect(await seedDemo(portal.tdb.db, 'demo password 123')).toEqual(demo);
    expect(await seedDemoRecords(portal.deps.tenantDb, demo.tenantId, catalogue, 6)).toBe(0);

    // Besides its records, a tenant has its books (SPEC §17: the chart, journals, fiscal years
    // and periods provisioning installs, and the seed too): as many rows as a new tenant's.
    const fresh = await portal.provisionTenant();
    const installed = new Map<string, number>();
    for (const resource of catalogue) {
      const { rows } = await portal.tdb.pool.query(
        `SELECT count(*)::int AS n FROM ${resource.table} WHERE tenant_id = $1`,
        [fresh.id],
      );
      installed.set(resource.name, rows[0].n);
    }
    expect(installed.get('account')).toBeGreaterThan(0);

    const headers = session(
      (await portal.login(DEMO_ADMIN_EMAIL, 'demo password 123')).access_token,
      'demo',
    );
    for (const resource of catalogue) {
      const res = await portal.json(await portal.request(`/api/v1/${resource.path}`, { headers }));
      expect(res.status, resource.name).toBe(200);
      // Journal entries: besides the 6 entered by hand (and their reversals), those the posting
      // engine made for the documents the seed issued, approved and posted.
      const made =
        resource.name === 'journal_entry'
          ? res.body.data
              .filter(
                (e: Record<string, unknown>) =>
                  !e.invoice_id && !e.supplier_invoice_id && !e.payment_id && !e.source_type,
              )
              .filter((e: Record<string, unknown>) => e.entry_type !== 'reversal')
          : resource.name === 'stock_adjustment'
            ? // Besides them, the opening inventory (SPEC §18): the stock the year's flows take.
              res.body.data.filter((a: Record<string, unknown>) => a.notes !== OPENING_INVENTORY)
            : res.body.data;
      expect(made, resource.name).toHaveLength(6 + installed.get(resource.name)!);
      // Fields naming a user name a member (the admin), not a made-up id.
      for (const [field, spec] of Object.entries(resource.fields)) {
        if (spec.type !== 'reference' || spec.resource !== USER) continue;
        const named = res.body.data.map((r: Record<string, unknown>) => r[field]);
        expect(named, `${resource.name}.${field}`).toContain(demo.adminId);
        expect(new Set(named.filter(Boolean)), `${resource.name}.${field}`).toEqual(
          new Set([demo.adminId]),
        );
      }
      if (resource.lifecycle)
        expect(
          new Set(res.body.data.map((r: { status: string }) => r.status)).size,
          resource.name,
        ).toBeGreaterThan(1);
    }
  });
});
