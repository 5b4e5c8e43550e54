import { type Kysely, sql } from 'kysely';

/**
 * The event and webhook tables keyed by tenant (SPEC §19), as a table distributed by
 * `tenant_id` must be: every primary key, unique constraint and reference holds `tenant_id`
 * first, and `webhook_delivery_attempts` gets its tenant (from its delivery). The plain
 * indexes on `id` keep the worker's and the feed's lookups by id as fast as the primary keys
 * on `id` made them (a non-unique index is allowed on a distributed table).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE webhook_deliveries
      DROP CONSTRAINT webhook_deliveries_event_id_fkey,
      DROP CONSTRAINT webhook_deliveries_subscription_id_fkey;
    ALTER TABLE webhook_delivery_attempts DROP CONSTRAINT webhook_delivery_attempts_delivery_id_fkey;

    ALTER TABLE events DROP CONSTRAINT events_pkey, ADD PRIMARY KEY (tenant_id, id);
    CREATE INDEX events_id ON events (id);
    ALTER TABLE webhook_subscriptions
      DROP CONSTRAINT webhook_subscriptions_pkey, ADD PRIMARY KEY (tenant_id, id);
    DROP INDEX webhook_subscriptions_tenant;
    CREATE INDEX webhook_subscriptions_id ON webhook_subscriptions (id);
    ALTER TABLE webhook_deliveries
      DROP CONSTRAINT webhook_deliveries_pkey, ADD PRIMARY KEY (tenant_id, id),
      DROP CONSTRAINT webhook_deliveries_event_id_subscription_id_key,
      ADD CONSTRAINT webhook_deliveries_tenant_id_event_id_subscription_id_key
        UNIQUE (tenant_id, event_id, subscription_id),
      ADD CONSTRAINT webhook_deliveries_tenant_id_event_id_fkey
        FOREIGN KEY (tenant_id, event_id) REFERENCES events (tenant_id, id) ON DELETE CASCADE,
      ADD CONSTRAINT webhook_deliveries_tenant_id_subscription_id_fkey
        FOREIGN KEY (tenant_id, subscription_id) REFERENCES webhook_subscriptions (tenant_id, id)
        ON DELETE CASCADE;
    CREATE INDEX webhook_deliveries_id ON webhook_deliveries (id);

    ALTER TABLE webhook_delivery_attempts ADD COLUMN tenant_id uuid;
    UPDATE webhook_delivery_attempts a SET tenant_id = d.tenant_id
      FROM webhook_deliveries d WHERE d.id = a.delivery_id;
    ALTER TABLE webhook_delivery_attempts
      ALTER COLUMN tenant_id SET NOT NULL,
      DROP CONSTRAINT webhook_delivery_attempts_pkey,
      ADD PRIMARY KEY (tenant_id, delivery_id, attempt),
      ADD CONSTRAINT webhook_delivery_attempts_tenant_id_fkey
        FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
      ADD CONSTRAINT webhook_delivery_attempts_tenant_id_delivery_id_fkey
        FOREIGN KEY (tenant_id, delivery_id) REFERENCES webhook_deliveries (tenant_id, id)
        ON DELETE CASCADE;
    CREATE INDEX webhook_delivery_attempts_delivery ON webhook_delivery_attempts (delivery_id, attempt);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX webhook_delivery_attempts_delivery;
    ALTER TABLE webhook_delivery_attempts
      DROP CONSTRAINT webhook_delivery_attempts_tenant_id_delivery_id_fkey,
      DROP CONSTRAINT webhook_delivery_attempts_tenant_id_fkey,
      DROP CONSTRAINT webhook_delivery_attempts_pkey,
      ADD PRIMARY KEY (delivery_id, attempt),
      DROP COLUMN tenant_id;
    DROP INDEX webhook_deliveries_id;
    ALTER TABLE webhook_deliveries
      DROP CONSTRAINT webhook_deliveries_tenant_id_subscription_id_fkey,
      DROP CONSTRAINT webhook_deliveries_tenant_id_event_id_fkey,
      DROP CONSTRAINT webhook_deliveries_tenant_id_event_id_subscription_id_key,
      ADD CONSTRAINT webhook_deliveries_event_id_subscription_id_key UNIQUE (event_id, subscription_id),
      DROP CONSTRAINT webhook_deliveries_pkey, ADD PRIMARY KEY (id);
    DROP INDEX webhook_subscriptions_id;
    CREATE INDEX webhook_subscriptions_tenant ON webhook_subscriptions (tenant_id, id);
    ALTER TABLE webhook_subscriptions DROP CONSTRAINT webhook_subscriptions_pkey, ADD PRIMARY KEY (id);
    DROP INDEX events_id;
    ALTER TABLE events DROP CONSTRAINT events_pkey, ADD PRIMARY KEY (id);
    ALTER TABLE webhook_deliveries
      ADD CONSTRAINT webhook_deliveries_event_id_fkey
        FOREIGN KEY (event_id) REFERENCES events (id) ON DELETE CASCADE,
      ADD CONSTRAINT webhook_deliveries_subscription_id_fkey
        FOREIGN KEY (subscription_id) REFERENCES webhook_subscriptions (id) ON DELETE CASCADE;
    ALTER TABLE webhook_delivery_attempts
      ADD CONSTRAINT webhook_delivery_attempts_delivery_id_fkey
        FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries (id) ON DELETE CASCADE;
  `.execute(db);
}
