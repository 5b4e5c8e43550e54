import { type Database, type Kysely, sql } from '@erp/db';
import { apiKey, type createTestPortal, session } from './harness';

type Portal = Awaited<ReturnType<typeof createTestPortal>>;

export const HOOKS = '/api/v1/settings/webhooks';

/** Test DNS: names the URL rules are checked against. */
export const FAKE_DNS: Record<string, string[]> = {
  'public.example': ['93.184.216.34'],
  'internal.example': ['10.0.0.5'],
  'metadata.example': ['169.254.169.254'],
  'mixed.example': ['93.184.216.34', '192.168.1.20'],
  'six.example': ['2606:2800:220:1:248:1893:25c8:1946'],
  'loop6.example': ['::1'],
  'compat6.example': ['::7f00:1'],
  'sixtofour.example': ['2002:a9fe:a9fe::1'],
  'nat64.example': ['64:ff9b::10.0.0.5'],
};

export async function fakeResolveHost(hostname: string): Promise<string[]> {
  const found = FAKE_DNS[hostname] ?? (hostname === 'localhost' ? ['127.0.0.1'] : undefined);
  if (found) return found;
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
}

export interface QueuedJob {
  task_identifier: string;
  payload: Record<string, unknown>;
  key: string | null;
  run_at: Date;
}

/**
 * graphile-worker's queue, oldest first. Its public `jobs` view leaves the payload out, so
 * this reads the private table behind it (tests only).
 */
export async function queuedJobs(db: Kysely<Database>, task?: string): Promise<QueuedJob[]> {
  const { rows } = await sql<QueuedJob>`
    SELECT t.identifier AS task_identifier, j.payload, j.key, j.run_at
    FROM graphile_worker._private_jobs j
    JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE ${task ?? null}::text IS NULL OR t.identifier = ${task ?? null}
    ORDER BY j.id`.execute(db);
  return rows;
}

/** Reads `events` as the worker does (the table has forced row-level security). */
export async function eventsOf(db: Kysely<Database>, tenantId: string) {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('app.worker', 'on', true)`.execute(trx);
    return trx
      .selectFrom('events')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .execute();
  });
}

/** Writes a delivery (and its event) directly, as the worker would have left it. */
export async function seedDelivery(
  db: Kysely<Database>,
  tenantId: string,
  subscriptionId: string,
  row: {
    status: 'pending' | 'delivered' | 'failed';
    attempts: number;
    createdAt?: Date;
    type?: string;
  },
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('app.tenant_id', ${tenantId}, true)`.execute(trx);
    const type = row.type ?? 'lead.created';
    const event = await trx
      .insertInto('events')
      .values({
        tenant_id: tenantId,
        type,
        resource: type.split('.')[0]!,
        resource_id: subscriptionId,
        data: JSON.stringify({ object: {} }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const delivery = await trx
      .insertInto('webhook_deliveries')
      .values({
        tenant_id: tenantId,
        subscription_id: subscriptionId,
        event_id: event.id,
        event_type: type,
        status: row.status,
        attempts: row.attempts,
        last_response_status: row.status === 'failed' ? 500 : null,
        created_at: row.createdAt ?? new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return delivery.id;
  });
}

/** A tenant with an admin session, a user without `webhooks`, and keys with and without it. */
export async function webhookWorld(portal: Portal) {
  const tenant = await portal.provisionTenant('business');
  const adminToken = (await portal.login(tenant.adminEmail)).access_token;
  const editor = await portal.addUser(tenant, ['sales:editor', 'crm:editor']);
  const hooksKey = await portal.createKey(tenant, ['webhooks', 'crm:write', 'sales:write']);
  const salesKey = await portal.createKey(tenant, ['sales:write']);
  return {
    tenant,
    admin: session(adminToken, tenant.slug),
    editor: session(editor.token, tenant.slug),
    hooksKey: apiKey(hooksKey.key, tenant.slug),
    salesKey: apiKey(salesKey.key, tenant.slug),
  };
}

/** Creates a subscription as the tenant's admin; fails the test on anything but 201. */
export async function subscribe(
  portal: Portal,
  headers: Record<string, string>,
  body: Record<string, unknown> = {},
) {
  const res = await portal
    .post(
      HOOKS,
      { url: 'https://public.example/hooks', events: ['lead.created'], ...body },
      headers,
    )
    .then(portal.json);
  if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; secret: string; url: string; events: string[] };
}
