import { randomUUID } from 'node:crypto';
import { generateSigningSecret, type SecretBox } from '@erp/webhooks';
import type pg from 'pg';
import { type Child, clock } from './child';

export const EVENT_TYPE = 'sales_order.created';

/** What a phase needs to create its data: the database, the secret box, the receiver. */
export interface FixtureDeps {
  db: pg.Pool;
  box: SecretBox;
  receiver: Child;
  receiverBaseUrl: string;
}

/** A tenant row straight in SQL (as apps/worker/test/harness.ts does): no portal needed. */
export async function createTenant(db: pg.Pool, slug: string): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO tenants (id, slug, name, modules) VALUES ($1, $2, $2, ARRAY['sales'])`,
    [id, slug],
  );
  return id;
}

/**
 * `count` enabled subscriptions of the tenant to `sales_order.created`, each with its own
 * secret, sealed as the portal seals it, and its own URL on the receiver, which is told the
 * secrets so that it can verify every signature.
 */
export async function createSubscriptions(
  deps: FixtureDeps,
  tenantId: string,
  count: number,
): Promise<string[]> {
  const subs = Array.from({ length: count }, () => ({
    id: randomUUID(),
    secret: generateSigningSecret(),
  }));
  await deps.db.query(
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, webhook_version, secret_sealed)
     SELECT s.id, $1, $2 || s.id, ARRAY[$3], '2026-11-23', s.sealed
     FROM unnest($4::uuid[], $5::bytea[]) AS s(id, sealed)`,
    [
      tenantId,
      `${deps.receiverBaseUrl}/hooks/`,
      EVENT_TYPE,
      subs.map((s) => s.id),
      subs.map((s) => deps.box.seal(s.secret, s.id)),
    ],
  );
  await deps.receiver.call({
    type: 'secrets',
    secrets: Object.fromEntries(subs.map((s) => [s.id, s.secret])),
  });
  return subs.map((s) => s.id);
}

/** A sales order as the portal's event would carry it (about 500 bytes of JSON). */
export function eventData(n: number): string {
  return JSON.stringify({
    object: {
      id: randomUUID(),
      number: `SO-2026-${String(n).padStart(5, '0')}`,
      status: 'confirme',
      customer_id: randomUUID(),
      order_date: '2026-11-23',
      currency: 'EUR',
      lines: [
        { product: 'Widget A', quantity: 3, unit_price_cents: 1250, tax_rate: 20 },
        { product: 'Gadget B', quantity: 1, unit_price_cents: 8900, tax_rate: 20 },
      ],
      total_excl_tax_cents: 12650,
      total_tax_cents: 2530,
      total_cents: 15180,
    },
  });
}

const INSERT_EVENT = `INSERT INTO events (tenant_id, type, resource, resource_id, data)
  VALUES ($1, $2, 'sales_order', $3, $4) RETURNING id`;

/** One event in its own transaction (autocommit): resolves once its COMMIT has returned. */
export async function insertEvent(db: pg.Pool, tenantId: string, n: number): Promise<string> {
  const { rows } = await db.query<{ id: string }>(INSERT_EVENT, [
    tenantId,
    EVENT_TYPE,
    randomUUID(),
    eventData(n),
  ]);
  return rows[0]!.id;
}

/** `count` events in one statement: the statement trigger enqueues all their fan-outs at once. */
export async function insertEventsAtOnce(
  db: pg.Pool | pg.PoolClient,
  tenantId: string,
  count: number,
): Promise<void> {
  const data = Array.from({ length: count }, (_, i) => eventData(i + 1));
  await db.query(
    `INSERT INTO events (tenant_id, type, resource, resource_id, data)
     SELECT $1, $2, 'sales_order', gen_random_uuid(), d FROM unnest($3::jsonb[]) AS d`,
    [tenantId, EVENT_TYPE, data],
  );
}

/**
 * `count` events as separate business transactions: `clients` connections each inserting one
 * row per transaction, back to back. Returns when the last COMMIT returned (wall-clock ms).
 */
export async function insertEventsConcurrently(
  db: pg.Pool,
  tenantId: string,
  count: number,
  clients: number,
): Promise<number> {
  let next = 0;
  let lastCommitAt = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) {
        await insertEvent(db, tenantId, ++next);
        lastCommitAt = clock();
      }
    }),
  );
  return lastCommitAt;
}
