import { createHash } from 'node:crypto';
import type { ErpSyncPush } from '@erp/contract';

/**
 * SHA-256 of a push's content in canonical form: keys sorted at every level, tenants ordered by
 * id (their order means nothing; the plans' order is their display order and counts), and
 * `generated_at` left out, so the same snapshot read twice hashes the same.
 */
export function snapshotDigest(push: ErpSyncPush): string {
  const content = {
    tenants: [...push.tenants].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    plans: push.plans,
    metadata: push.metadata,
  };
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/** JSON with object keys sorted recursively (arrays keep their order). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
