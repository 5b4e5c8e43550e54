import { type Resource, servedResources } from '@erp/contract';
import type pg from 'pg';
import type { ActorRef } from '../src/http/context';
import { runOperation } from '../src/resources';
import {
  DEMO_YEAR,
  type SeedContext,
  type SeededRecord,
  type SeedReads,
  type SeedWalks,
} from './catalogue/context';

/**
 * The goods' part of the demo (SPEC §18): what moves stock is seeded after the warehouses,
 * their locations and the products (every resource with stock effects, and the orders whose
 * shortcuts ship and receive), and the stock those movements take is there first, by the flow
 * a company starting on the ERP uses: an opening inventory, one stock adjustment per warehouse,
 * validated (stock in at each product's cost, posted against the stock variation account).
 */
export const goodsSeedReads: SeedReads = {
  ...Object.fromEntries(
    servedResources
      .filter(movesStock)
      .map((r) => [r.name, ['warehouse', 'stock_location', 'product', 'account', 'journal']]),
  ),
  // An order is invoiced once delivered (billed once received): its invoices are made after
  // its deliveries (its bills after its receipts).
  invoice: ['delivery'],
  supplier_invoice: ['goods_receipt'],
};

/** A resource whose actions move stock: its own effects, or a shortcut that ships or receives. */
export function movesStock(resource: Resource): boolean {
  return Boolean(
    resource.stock?.length ||
      Object.values(resource.lifecycle?.actions ?? {}).some((a) => a.shortcut),
  );
}

/**
 * An override's way to say its record is made from a source by a conversion (SPEC §18): the
 * source, its conversion and the lines and quantities taken; the override's other fields
 * complete the draft.
 */
export const CONVERT = '__convert';
export interface SeedConversion {
  source: Resource;
  id: string;
  conversion: string;
  lines?: { line_id: string; quantity: string }[];
}

/** A resource of the served registry, by name. */
export function resourceNamed(name: string): Resource {
  return servedResources.find((r) => r.name === name)!;
}

/** Whether a line's product is goods (stockable or consumable), among the seeded products. */
export function isGoods(ctx: SeedContext, productId: unknown): boolean {
  const product = (ctx.records.get('product') ?? []).find((p) => p.id === productId);
  return product !== undefined && product.product_type !== 'service';
}

/**
 * Purchase orders: half are sent (their receipts and bills are made from them, two receipts
 * each), the others in draft, waiting for approval, rejected or cancelled; none received by
 * the `receive` shortcut.
 */
export const goodsSeedWalks: SeedWalks = {
  purchase_order: (n) =>
    n === 6
      ? ['cancel']
      : ([[], ['submit'], ['submit', 'reject']][n % 6] ?? ['submit', 'approve', 'send']),
  // Most receipts are validated (the goods are in); one in six waits in draft.
  goods_receipt: (n) => (n % 6 === 5 ? [] : ['validate']),
};

/** The note of the opening inventory's adjustments. */
export const OPENING_INVENTORY = 'Opening inventory';

/** On hand at the start: plenty for the year's flows, so none is refused for want of stock. */
const OPENING = { Unit: '500', other: '5000' };

export async function openingInventory(
  client: pg.PoolClient,
  tenantId: string,
  records: ReadonlyMap<string, readonly SeededRecord[]>,
  adjustments: Resource,
  actor: ActorRef,
): Promise<SeededRecord[]> {
  const locations = records.get('stock_location') ?? [];
  const products = (records.get('product') ?? []).filter(
    (p) => p.product_type === 'stockable' && p.active !== false,
  );
  const variation = (records.get('account') ?? []).find((a) => a.code === '603700');
  const made: SeededRecord[] = [];
  for (const warehouse of records.get('warehouse') ?? []) {
    // Every shelf of the warehouse holds some (not the scrap area): what later documents take
    // from a named location is there too.
    const holding = locations.filter(
      (l) =>
        l.warehouse_id === warehouse.id &&
        l.usage === 'internal' &&
        l.status === 'actif' &&
        !l.is_scrap,
    );
    if (!holding.length || !products.length) continue;
    const draft = await runOperation(
      client,
      tenantId,
      {
        resource: adjustments,
        kind: 'create',
        body: {
          warehouse_id: warehouse.id,
          adjustment_date: `${DEMO_YEAR}-01-01`,
          reason: 'other',
          account_id: variation?.id ?? null,
          notes: OPENING_INVENTORY,
          lines: holding.flatMap((location) =>
            products.map((p) => ({
              product_id: p.id,
              location_id: location.id,
              quantity: p.unit_of_measure === 'Unit' ? OPENING.Unit : OPENING.other,
              unit_of_measure: p.unit_of_measure ?? null,
            })),
          ),
        },
      },
      actor,
    );
    const { id } = JSON.parse(draft.body!) as { id: string };
    const validated = await runOperation(
      client,
      tenantId,
      { resource: adjustments, kind: 'action', id, action: 'validate' },
      actor,
    );
    made.push(JSON.parse(validated.body!) as SeededRecord);
  }
  return made;
}
