import type pg from 'pg';
import { readOnce } from './reads';
import { named } from './sql';

/** A stock location as the stock engine reads it. */
export interface LocationInfo {
  id: string;
  usage: string;
  warehouse_id: string | null;
}

/**
 * Each warehouse's main location (SPEC §18): where a receipt enters and a delivery leaves when
 * the document names no location: its first active internal location by code.
 */
export async function mainLocations(
  client: pg.PoolClient,
  tenantId: string,
  warehouses: readonly string[],
): Promise<Map<string, string>> {
  if (!warehouses.length) return new Map();
  return readOnce(client, 'mains', [...new Set(warehouses)], async (missing) => {
    const { rows } = await client.query<{ warehouse_id: string; id: string }>(
      named(
        `SELECT DISTINCT ON (warehouse_id) warehouse_id, id FROM stock_locations
          WHERE tenant_id = $1 AND warehouse_id = ANY($2::uuid[]) AND usage = 'internal' AND status = 'actif'
          ORDER BY warehouse_id, code, id`,
        [tenantId, missing],
      ),
    );
    return new Map(rows.map((r) => [r.warehouse_id, r.id]));
  });
}

/** The locations named, by id. */
export async function locationsOf(
  client: pg.PoolClient,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, LocationInfo>> {
  if (!ids.length) return new Map();
  const { rows } = await client.query<LocationInfo>(
    named(
      `SELECT id, usage, warehouse_id FROM stock_locations WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, [...new Set(ids)]],
    ),
  );
  return new Map(rows.map((r) => [r.id, r]));
}
