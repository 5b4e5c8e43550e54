import type { SeedContext, SeededRecord } from './context';

/**
 * What the purchasing and inventory seeds share: finding records already made, the three
 * stocking warehouses and their locations, which suppliers sell which products, lots.
 */

export type Line = Record<string, unknown>;

/** Records of a resource, or none when it is not seeded (yet). */
export function recordsOf(ctx: SeedContext, resource: string): readonly SeededRecord[] {
  return ctx.records.get(resource) ?? [];
}

/** Master data still in use (not archived). */
export function inUse(records: readonly SeededRecord[]): SeededRecord[] {
  return records.filter((r) => r.status !== 'archive');
}

/** The k-th of a list, cycling; undefined when the list is empty. */
export function cycle<T>(list: readonly T[], k: number): T | undefined {
  return list.length ? list[k % list.length] : undefined;
}

/** The record of a resource with this id. */
export function byId(ctx: SeedContext, resource: string, id: unknown): SeededRecord | undefined {
  return recordsOf(ctx, resource).find((r) => r.id === id);
}

/** The three warehouses stock documents use (the first warehouses seeded). */
export function stockingWarehouse(ctx: SeedContext, k: number): SeededRecord {
  return ctx.pick('warehouse', k % Math.min(3, recordsOf(ctx, 'warehouse').length));
}

/** The stock root of a warehouse (its internal location without a parent), if seeded. */
export function stockRoot(ctx: SeedContext, warehouseId: unknown): SeededRecord | undefined {
  return recordsOf(ctx, 'stock_location').find(
    (l) => l.warehouse_id === warehouseId && !l.parent_id && l.usage === 'internal',
  );
}

/** The shelves in use under a warehouse's stock root (not the scrap area), or the root. */
export function binsOf(ctx: SeedContext, warehouseId: unknown): SeededRecord[] {
  const bins = inUse(recordsOf(ctx, 'stock_location')).filter(
    (l) => l.warehouse_id === warehouseId && l.parent_id && !l.is_scrap,
  );
  const root = stockRoot(ctx, warehouseId);
  return bins.length ? bins : root ? [root] : [];
}

/** A virtual location of a kind (supplier, customer, inventory), if seeded. */
export function virtualLocation(ctx: SeedContext, usage: string): SeededRecord | undefined {
  return recordsOf(ctx, 'stock_location').find((l) => l.usage === usage);
}

/** Products that are kept in stock (no services). */
export function stockedProducts(ctx: SeedContext): SeededRecord[] {
  return recordsOf(ctx, 'product').filter((p) => p.product_type !== 'service' && p.active);
}

/** A lot of a product (preferably from a supplier), if any. */
export function lotOf(
  ctx: SeedContext,
  productId: unknown,
  k: number,
  supplierId?: unknown,
): SeededRecord | undefined {
  const lots = inUse(recordsOf(ctx, 'lot')).filter((l) => l.product_id === productId);
  const fromSupplier = lots.filter((l) => supplierId && l.supplier_id === supplierId);
  return cycle(fromSupplier, k) ?? cycle(lots, k);
}

/** A document line of a product: what quantity lines carry for it. */
export function stockLine(product: SeededRecord, quantity: string): Line {
  return {
    product_id: product.id,
    description: product.name,
    quantity,
    unit_of_measure: product.unit_of_measure,
  };
}

/** A quantity people order of a product: units by the five, metres, kilos and litres by the hundred. */
export function orderQuantity(product: SeededRecord, k: number): string {
  return String(product.unit_of_measure === 'Unit' ? 5 * (1 + (k % 8)) : 100 * (1 + (k % 5)));
}

/** Which supplier group sells a product, by the product's code. */
const GROUP_BY_SKU: [RegExp, string][] = [
  [/^(CHAIR|DESK)-/, 'FURN'],
  [/^PAP-/, 'OFFICE'],
  [/^(LAP|CBL|MON)-/, 'IT'],
  [/^(STL|CU)-/, 'METAL'],
  [/^GLUE-/, 'CHEM'],
  [/^BOX-/, 'PACK'],
];

function productGroup(product: SeededRecord | undefined): string | undefined {
  return GROUP_BY_SKU.find(([pattern]) => pattern.test(String(product?.sku)))?.[1];
}

/** The code of a supplier's group. */
export function groupCode(ctx: SeedContext, supplier: SeededRecord): unknown {
  return byId(ctx, 'supplier_group', supplier.supplier_group_id)?.code;
}

/** Suppliers that sell a product (by their group), else every supplier but the carriers. */
export function suppliersFor(ctx: SeedContext, product: SeededRecord | undefined): SeededRecord[] {
  const suppliers = recordsOf(ctx, 'supplier').filter((s) => !s.is_on_hold);
  const group = productGroup(product);
  const selling = suppliers.filter((s) => group && groupCode(ctx, s) === group);
  if (selling.length) return selling;
  const goods = suppliers.filter((s) => groupCode(ctx, s) !== 'LOG');
  return goods.length ? goods : [...recordsOf(ctx, 'supplier')];
}

/** Carriers (suppliers of the logistics group). */
export function carriers(ctx: SeedContext): SeededRecord[] {
  return recordsOf(ctx, 'supplier').filter((s) => groupCode(ctx, s) === 'LOG');
}

/**
 * Stocked products in families one supplier sells together (furniture, IT, metals…), so a
 * request or an order names goods its supplier actually offers.
 */
export function productFamilies(ctx: SeedContext): SeededRecord[][] {
  const families = new Map<string, SeededRecord[]>();
  for (const product of stockedProducts(ctx)) {
    const group = productGroup(product) ?? 'OTHER';
    families.set(group, [...(families.get(group) ?? []), product]);
  }
  return [...families.values()];
}

/** Up to `count` products of the k-th family, starting further along for later k. */
export function familyProducts(ctx: SeedContext, k: number, count: number): SeededRecord[] {
  const families = productFamilies(ctx);
  const family = cycle(families, k) ?? [ctx.pick('product')];
  const start = Math.floor(k / Math.max(1, families.length));
  return Array.from(
    { length: Math.min(count, family.length) },
    (_, i) => family[(start + i) % family.length]!,
  );
}
