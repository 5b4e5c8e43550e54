import { catalogue, resourceSchemas } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal } from '../../test/harness';
import { seedDemo } from '../demo';
import { seedDemoRecords } from '../demo-records';
import { addWorkingHours } from './calendars';

/**
 * The demo seed's records agree with each other, checked on a seeded tenant read back from the
 * database: a module's records refer to records they fit (a BOM's components are other
 * products, a work order runs after its order starts, a ticket's deadlines are its policy's).
 */
type Row = Record<string, unknown> & { id: string; status?: string };
type Line = Record<string, unknown>;

let portal: Awaited<ReturnType<typeof createTestPortal>>;
const rows = new Map<string, Row[]>();
const of = (resource: string) => rows.get(resource) ?? [];
const find = (resource: string, id: unknown) => of(resource).find((r) => r.id === id);
const time = (value: unknown) => Date.parse(String(value));

beforeAll(async () => {
  portal = await createTestPortal();
  const demo = await seedDemo(portal.tdb.db, 'demo password 123');
  await seedDemoRecords(portal.deps.tenantDb, demo.tenantId, catalogue, 6, [demo.adminId]);
  for (const resource of catalogue) {
    const { rows: found } = await portal.tdb.pool.query(
      `SELECT to_jsonb(t) AS j FROM ${resource.table} t WHERE tenant_id = $1 ORDER BY id`,
      [demo.tenantId],
    );
    rows.set(
      resource.name,
      found.map((r: { j: Row }) => r.j),
    );
  }
}, 120_000);
afterAll(() => portal.tdb.close());

describe.each(['production', 'support'])('the %s seed', (module) => {
  it('writes values its resources accept through the API (ranges, formats, enums)', () => {
    for (const resource of catalogue.filter((r) => r.module === module)) {
      const create = resourceSchemas(resource).create;
      for (const row of of(resource.name)) {
        const body = Object.fromEntries(
          Object.keys(resource.fields)
            .filter((f) => row[f] !== null)
            .map((f) => [f, row[f]]),
        );
        const parsed = create.safeParse(body);
        expect(parsed.error?.issues, `${resource.name} ${row.id}`).toBeUndefined();
      }
    }
  });
});

describe('the production seed', () => {
  it('makes each product from other products, and its orders from its BOM', () => {
    for (const bom of of('bill_of_materials')) {
      const components = bom.components as Line[];
      expect(components.length, bom.id).toBeGreaterThan(0);
      for (const line of components) expect(line.product_id).not.toBe(bom.product_id);
      const routing = find('routing', bom.routing_id);
      if (routing) expect(routing.product_id).toBe(bom.product_id);
    }
    for (const order of of('production_order')) {
      const bom = find('bill_of_materials', order.bom_id)!;
      expect(order.product_id).toBe(bom.product_id);
      const made = new Set((bom.components as Line[]).map((l) => l.product_id));
      for (const line of order.components as Line[]) expect(made.has(line.product_id)).toBe(true);
    }
  });

  it('schedules work orders after their order starts, on the routing’s work centres, with times in order', () => {
    for (const wo of of('work_order')) {
      const order = find('production_order', wo.production_order_id)!;
      expect(time(wo.planned_start)).toBeGreaterThanOrEqual(time(order.planned_start));
      expect(time(wo.planned_end)).toBeGreaterThan(time(wo.planned_start));
      const step = find('routing_operation', wo.routing_operation_id);
      if (step) {
        expect(step.routing_id).toBe(order.routing_id);
        expect(wo.work_center_id).toBe(step.work_center_id);
      }
      expect(wo.actual_start === null, `${wo.id} ${wo.status}`).toBe(wo.status === 'planifie');
      expect(wo.actual_end === null, `${wo.id} ${wo.status}`).toBe(wo.status !== 'termine');
      if (wo.actual_end) expect(time(wo.actual_end)).toBeGreaterThan(time(wo.actual_start));
      // Work under way belongs to an order under way.
      if (wo.status !== 'planifie') expect(['en_cours', 'termine']).toContain(order.status);
    }
    for (const card of of('job_card')) {
      const wo = find('work_order', card.work_order_id)!;
      expect(card.work_center_id).toBe(wo.work_center_id);
      for (const log of card.time_logs as Line[]) {
        expect(time(log.started_at)).toBeGreaterThanOrEqual(time(wo.actual_start));
        expect(time(log.ended_at)).toBeGreaterThan(time(log.started_at));
      }
    }
  });

  it('consumes, receives, scraps and inspects what the order makes', () => {
    for (const consumption of of('material_consumption')) {
      const order = find('production_order', consumption.production_order_id)!;
      const components = new Set((order.components as Line[]).map((l) => l.product_id));
      for (const line of consumption.lines as Line[])
        expect(components.has(line.product_id)).toBe(true);
    }
    for (const receipt of of('finished_goods_receipt')) {
      const order = find('production_order', receipt.production_order_id)!;
      expect(receipt.product_id).toBe(order.product_id);
      expect(receipt.warehouse_id).toBe(order.warehouse_id);
    }
    for (const scrap of of('scrap_entry')) {
      const order = find('production_order', scrap.production_order_id)!;
      const products = [order.product_id, ...(order.components as Line[]).map((l) => l.product_id)];
      expect(products).toContain(scrap.product_id);
      expect(find('work_order', scrap.work_order_id)!.production_order_id).toBe(order.id);
    }
    for (const check of of('quality_check')) {
      const point = find('quality_point', check.quality_point_id)!;
      expect(check.product_id).toBe(point.product_id);
      if (check.goods_receipt_id) {
        const receipt = find('goods_receipt', check.goods_receipt_id)!;
        const received = (receipt.lines as Line[]).map((l) => l.product_id);
        expect(received).toContain(check.product_id);
      }
      if (check.production_order_id)
        expect(find('production_order', check.production_order_id)!.product_id).toBe(
          check.product_id,
        );
      if (point.check_type === 'measurement' && check.status === 'approuve') {
        expect(Number(check.measured_value)).toBeGreaterThanOrEqual(Number(point.tolerance_min));
        expect(Number(check.measured_value)).toBeLessThanOrEqual(Number(point.tolerance_max));
      }
    }
  });
});

describe('the support seed', () => {
  it('gives each ticket the deadlines of its policy for its priority, counted in the policy’s hours', () => {
    expect(of('support_ticket').length).toBeGreaterThan(0);
    for (const ticket of of('support_ticket')) {
      const policy = find('sla_policy', ticket.sla_policy_id)!;
      const target = (policy.targets as Line[]).find((t) => t.priority === ticket.priority)!;
      const calendar = find('service_calendar', policy.service_calendar_id);
      const hours = (calendar?.working_hours as Line[] | undefined) ?? [];
      const closed = of('service_holiday')
        .filter((h) => h.service_calendar_id === policy.service_calendar_id)
        .map((h) => [String(h.start_date), String(h.end_date)] as [string, string]);
      const opened = new Date(time(ticket.opened_at)).toISOString();
      expect(time(ticket.first_response_due_at)).toBe(
        time(addWorkingHours(opened, Number(target.first_response_hours), hours, closed)),
      );
      expect(time(ticket.resolution_due_at)).toBe(
        time(addWorkingHours(opened, Number(target.resolution_hours), hours, closed)),
      );
      expect(time(ticket.first_response_due_at)).toBeGreaterThan(time(ticket.opened_at));
      expect(time(ticket.resolution_due_at)).toBeGreaterThanOrEqual(
        time(ticket.first_response_due_at),
      );
      if (ticket.first_responded_at)
        expect(time(ticket.first_responded_at)).toBeGreaterThan(time(ticket.opened_at));
      const resolved = ticket.status === 'resolu' || ticket.status === 'ferme';
      expect(ticket.resolved_at !== null, `${ticket.id} ${ticket.status}`).toBe(resolved);
      // A policy for one customer applies only to that customer's tickets.
      if (policy.customer_id) expect(policy.customer_id).toBe(ticket.customer_id);
      const contact = find('contact', ticket.contact_id);
      if (contact) expect(contact.customer_id).toBe(ticket.customer_id);
    }
  });

  it('writes messages, ratings, claims and visits after their ticket, for its customer', () => {
    for (const message of of('ticket_message')) {
      const ticket = find('support_ticket', message.support_ticket_id)!;
      expect(time(message.sent_at)).toBeGreaterThanOrEqual(time(ticket.opened_at));
      if (message.message_type === 'customer_message') expect(message.author_user_id).toBeNull();
    }
    for (const rating of of('satisfaction_rating')) {
      const ticket = find('support_ticket', rating.support_ticket_id)!;
      expect(['resolu', 'ferme']).toContain(ticket.status);
      expect(time(rating.sent_at)).toBeGreaterThan(time(ticket.resolved_at));
      if (rating.responded_at)
        expect(time(rating.responded_at)).toBeGreaterThan(time(rating.sent_at));
    }
    for (const item of of('service_item')) {
      const delivery = find('delivery', item.delivery_id)!;
      expect(item.customer_id).toBe(delivery.customer_id);
      expect(String(item.warranty_end_date) > String(item.warranty_start_date)).toBe(true);
    }
    for (const claim of of('warranty_claim')) {
      const item = find('service_item', claim.service_item_id)!;
      expect([claim.customer_id, claim.product_id, claim.serial_number]).toEqual([
        item.customer_id,
        item.product_id,
        item.serial_number,
      ]);
      expect(String(claim.claim_date) >= String(item.warranty_start_date)).toBe(true);
    }
    for (const contract of of('service_contract')) {
      for (const line of contract.covered_items as Line[])
        expect(find('service_item', line.service_item_id)!.customer_id).toBe(contract.customer_id);
      expect(String(contract.end_date) > String(contract.start_date)).toBe(true);
    }
    for (const order of of('service_order')) {
      const ticket = find('support_ticket', order.support_ticket_id)!;
      expect(order.customer_id).toBe(ticket.customer_id);
      expect(time(order.scheduled_start)).toBeGreaterThan(time(ticket.opened_at));
      expect(order.actual_start === null).toBe(order.status === 'planifie');
    }
  });
});
