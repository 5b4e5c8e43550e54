import { type Kysely, sql } from 'kysely';

/**
 * Business webhooks (SPEC §7):
 * - `webhook_subscriptions`: per tenant; signing secrets only as ciphertext (AES-GCM, sealed
 *   by the apps), the previous one kept while a rotation overlaps.
 * - `webhook_deliveries`: one row per (event, subscription) whose id never changes, so
 *   receivers can deduplicate on `X-Service-Delivery-Id`; `webhook_delivery_attempts`: every
 *   attempt (time, duration, status, response excerpt, error).
 * - A statement-level trigger on `events` enqueues one `webhook_fanout` job per event that
 *   some enabled subscription of its tenant wants, in the business transaction itself: a
 *   rollback leaves no job, a commit cannot lose one. Tenants without subscriptions pay one
 *   index probe per write. SECURITY DEFINER: `erp_app` needs no right on the queue.
 * - `worker_heartbeats`: each worker process's job-locking ids and when it was last seen, so
 *   a live worker can unlock the jobs of one that died (graphile-worker alone waits 4 hours).
 * - The worker reads every tenant's outbox: sessions that set `app.worker = 'on'` pass the
 *   `events` policy (business connections never set it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhook_subscriptions (
      id uuid PRIMARY KEY DEFAULT erp_uuidv7(),
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      url text NOT NULL,
      events text[] NOT NULL,
      description text NOT NULL DEFAULT '',
      enabled boolean NOT NULL DEFAULT true,
      disabled_reason text,
      webhook_version text NOT NULL,
      secret_sealed bytea NOT NULL,
      previous_secret_sealed bytea,
      previous_secret_expires_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhook_subscriptions_tenant ON webhook_subscriptions (tenant_id, id);

    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY DEFAULT erp_uuidv7(),
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      subscription_id uuid NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
      event_id uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
      event_type text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      last_response_status integer,
      last_error text,
      delivered_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (event_id, subscription_id)
    );
    CREATE INDEX webhook_deliveries_log ON webhook_deliveries (subscription_id, id);

    CREATE TABLE webhook_delivery_attempts (
      delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
      attempt integer NOT NULL,
      manual boolean NOT NULL DEFAULT false,
      started_at timestamptz NOT NULL,
      duration_ms integer NOT NULL,
      response_status integer,
      response_excerpt text,
      error text,
      PRIMARY KEY (delivery_id, attempt)
    );

    CREATE UNLOGGED TABLE worker_heartbeats (
      locker_id text PRIMARY KEY,
      process_id text NOT NULL,
      last_seen timestamptz NOT NULL DEFAULT now()
    );

    CREATE FUNCTION erp_worker_session() RETURNS boolean LANGUAGE sql STABLE AS $fn$
      SELECT coalesce(current_setting('app.worker', true), '') = 'on'
    $fn$;
    ALTER POLICY tenant_isolation ON events
      USING (tenant_id = erp_tenant_id() OR erp_worker_session())
      WITH CHECK (tenant_id = erp_tenant_id() OR erp_worker_session());

    CREATE FUNCTION enqueue_webhook_fanout() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $fn$
    BEGIN
      PERFORM graphile_worker.add_jobs(specs)
      FROM (
        SELECT array_agg(ROW('webhook_fanout', json_build_object('event_id', e.id), NULL, NULL, NULL, NULL, NULL, NULL)::graphile_worker.job_spec) AS specs
        FROM new_events e
        WHERE e.type <> 'webhook.test' AND EXISTS (
          SELECT 1 FROM webhook_subscriptions s
          WHERE s.tenant_id = e.tenant_id AND s.enabled AND e.type = ANY (s.events)
        )
      ) wanted
      WHERE specs IS NOT NULL;
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER events_webhook_fanout AFTER INSERT ON events
      REFERENCING NEW TABLE AS new_events
      FOR EACH STATEMENT EXECUTE FUNCTION enqueue_webhook_fanout();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER events_webhook_fanout ON events;
    DROP FUNCTION enqueue_webhook_fanout();
    ALTER POLICY tenant_isolation ON events
      USING (tenant_id = erp_tenant_id()) WITH CHECK (tenant_id = erp_tenant_id());
    DROP FUNCTION erp_worker_session();
    DROP TABLE worker_heartbeats, webhook_delivery_attempts, webhook_deliveries, webhook_subscriptions;
  `.execute(db);
}
