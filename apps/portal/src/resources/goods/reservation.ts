import { fromMillionths, type Resource, toMillionths } from '@erp/contract';
import type pg from 'pg';
import { mapWriteError } from '../pg-errors';
import { mainLocations } from './places';
import { productsOf } from './products';
import { named } from './sql';
import { statesAfter } from './states';

type Line = Record<string, unknown> & { id: string; quantity: string };

/**
 * Reservations (SPEC §18): confirming a sales order reserves what remains to deliver of its
 * stockable lines at its warehouse's main location; shipping consumes it (counting.ts), a
 * release action (cancelling) gives back what remained. An order without a warehouse reserves
 * nothing.
 */
export function reservesOnAction(resource: Resource, action: string): boolean {
  const r = resource.reservation;
  return r !== undefined && (r.on === action || r.release.includes(action));
}

export async function reserveOnAction(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  action: string,
  doc: Record<string, unknown>,
  previousStatus: string,
): Promise<void> {
  const r = resource.reservation!;
  let sign: bigint;
  if (r.on === action) sign = 1n;
  else if (statesAfter(resource, r.on, r.release).has(previousStatus)) sign = -1n;
  else return;
  const lines = (doc.lines as Line[] | undefined) ?? [];
  const remaining = new Map(
    lines.map((l) => [
      l.id,
      toMillionths(l.quantity) - toMillionths(String(l[r.consumedBy] ?? '0')),
    ]),
  );
  await reserve(client, tenantId, doc, r.warehouse, lines, remaining, sign);
}

/** What a delivery consumed of an order's reservation: its counted deltas by source line. */
export interface Consumed {
  source: Resource;
  doc: Record<string, unknown>;
  deltas: ReadonlyMap<string, bigint>;
}

export async function releaseConsumed(
  client: pg.PoolClient,
  tenantId: string,
  { source, doc, deltas }: Consumed,
): Promise<void> {
  const r = source.reservation!;
  await reserve(client, tenantId, doc, r.warehouse, (doc.lines as Line[]) ?? [], deltas, -1n);
}

async function reserve(
  client: pg.PoolClient,
  tenantId: string,
  doc: Record<string, unknown>,
  warehouseField: string,
  lines: readonly Line[],
  quantities: ReadonlyMap<string, bigint>,
  sign: bigint,
): Promise<void> {
  const warehouse = doc[warehouseField];
  if (typeof warehouse !== 'string') return;
  const products = await productsOf(client, tenantId, lines);
  const moves = lines.flatMap((line) => {
    const product = products.get(String(line.product_id));
    const q = quantities.get(line.id) ?? 0n;
    return product?.product_type === 'stockable' && q > 0n ? [{ line, q }] : [];
  });
  if (!moves.length) return;
  const location = (await mainLocations(client, tenantId, [warehouse])).get(warehouse);
  if (!location) return;
  await client
    .query(
      named('SELECT erp_stock_reserve($1, $2::jsonb)', [
        tenantId,
        JSON.stringify(
          moves.map(({ line, q }) => ({
            product_id: line.product_id,
            warehouse_id: warehouse,
            location_id: location,
            quantity: fromMillionths(q * sign),
          })),
        ),
      ]),
    )
    .catch((e) => mapWriteError(e, 'write'));
}
