import type pg from 'pg';

/**
 * What one goods action reads more than once (its products, its warehouses' main locations:
 * the counting, the stock and the reservation each need them), read once: kept for the action,
 * on its client, and dropped when it ends (the next transaction reads them afresh).
 */
interface ActionReads {
  products: Map<string, unknown>;
  mains: Map<string, string | null>;
}

const open = new WeakMap<pg.PoolClient, ActionReads>();

export async function withActionReads<T>(client: pg.PoolClient, run: () => Promise<T>): Promise<T> {
  open.set(client, { products: new Map(), mains: new Map() });
  try {
    return await run();
  } finally {
    open.delete(client);
  }
}

/**
 * The values for `keys` from the action's reads where it has them, the rest by `read` (and
 * kept); outside an action, all by `read`.
 */
export async function readOnce<V>(
  client: pg.PoolClient,
  kind: keyof ActionReads,
  keys: readonly string[],
  read: (missing: string[]) => Promise<Map<string, V>>,
): Promise<Map<string, V>> {
  const kept = open.get(client)?.[kind] as Map<string, V | null> | undefined;
  if (!kept) return read([...keys]);
  const missing = keys.filter((k) => !kept.has(k));
  if (missing.length) {
    const found = await read(missing);
    for (const k of missing) kept.set(k, found.get(k) ?? null);
  }
  const out = new Map<string, V>();
  for (const k of keys) {
    const v = kept.get(k);
    if (v !== null && v !== undefined) out.set(k, v);
  }
  return out;
}
