import type pg from 'pg';
import { readOnce } from './reads';
import { named } from './sql';

/** A product as the goods engine reads it (SPEC §18). */
export interface ProductInfo {
  id: string;
  product_type: 'stockable' | 'consumable' | 'service';
  valuation_method: 'fifo' | 'moving_average' | 'standard' | null;
  /** Minor units, as text (int8). */
  cost_price_cents: string | null;
}

/** The products the lines name, by id. */
export async function productsOf(
  client: pg.PoolClient,
  tenantId: string,
  lines: readonly Record<string, unknown>[],
): Promise<Map<string, ProductInfo>> {
  const ids = [
    ...new Set(lines.map((l) => l.product_id).filter((p): p is string => typeof p === 'string')),
  ];
  if (!ids.length) return new Map();
  return readOnce(client, 'products', ids, async (missing) => {
    const { rows } = await client.query<ProductInfo>(
      named(
        `SELECT id, product_type, valuation_method, cost_price_cents::text AS cost_price_cents
         FROM products WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
        [tenantId, missing],
      ),
    );
    return new Map(rows.map((p) => [p.id, p]));
  });
}

/** The products of the lines that are goods: stockable or consumable (services are not). */
export async function goodsProducts(
  client: pg.PoolClient,
  tenantId: string,
  lines: readonly Record<string, unknown>[],
): Promise<Set<string>> {
  const products = await productsOf(client, tenantId, lines);
  return new Set(
    [...products.values()].filter((p) => p.product_type !== 'service').map((p) => p.id),
  );
}
