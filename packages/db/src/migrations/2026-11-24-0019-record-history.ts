import { type Kysely, sql } from 'kysely';

/**
 * Record history (SPEC §12 `GET /{path}/{id}/history`): one row per version of a business
 * record, written by the very statement that makes the change (the resource engine adds an
 * `INSERT INTO record_history` CTE to its write), so there is no change without its row and a
 * rollback leaves neither.
 *
 * - `changes` is `{field: [old, new]}` in the API's representation of each value (decimals as
 *   exact strings, lines as one field), computed in SQL by `record_changes` from the row
 *   before and after (`to_jsonb`).
 * - `actor_type` + `actor_id` is the portal's `ActorRef` (a session's user, or the API key
 *   itself). No foreign key: a history outlives the user or key it names; names are joined
 *   when read (`record_history_actor_name`).
 * - No foreign key to the record either: a deleted record keeps its history. Nothing deletes
 *   rows but the tenant's own deletion (the event feed's retention does not apply here).
 * - The primary key (tenant, resource, record, version) is the newest-first keyset index of
 *   one record's history, and makes a version impossible to record twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE record_history (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      resource text NOT NULL,
      record_id uuid NOT NULL,
      version integer NOT NULL CHECK (version > 0),
      at timestamptz NOT NULL DEFAULT now(),
      actor_type text NOT NULL CHECK (actor_type IN ('user', 'api_key')),
      actor_id uuid NOT NULL,
      action text NOT NULL,
      changes jsonb NOT NULL,
      PRIMARY KEY (tenant_id, resource, record_id, version)
    );

    ALTER TABLE record_history ENABLE ROW LEVEL SECURITY;
    ALTER TABLE record_history FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON record_history
      USING (tenant_id = erp_tenant_id()) WITH CHECK (tenant_id = erp_tenant_id());
    -- Append-only for the application: history is never rewritten.
    GRANT SELECT, INSERT ON record_history TO erp_app;

    -- {field: [old, new]} between two versions of a row (to_jsonb of each, null for none): every
    -- field whose value differs, a missing field and JSON null being the same (no value).
    -- Bookkeeping columns are not changes of their own. Fields named in p_as_text are written
    -- as strings, as the API shows them (decimals: exact text, never a JSON number a client
    -- would round). PL/pgSQL rather than SQL: its query plan is kept for the session, where a
    -- SQL function's body (not inlinable: it aggregates) is planned again in every write.
    CREATE FUNCTION record_changes(p_old jsonb, p_new jsonb, p_as_text text[]) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
    DECLARE
      v_changes jsonb;
    BEGIN
      SELECT coalesce(jsonb_object_agg(k, jsonb_build_array(
               CASE WHEN o <> 'null' AND k = ANY(p_as_text) THEN to_jsonb(o #>> '{}') ELSE o END,
               CASE WHEN n <> 'null' AND k = ANY(p_as_text) THEN to_jsonb(n #>> '{}') ELSE n END)), '{}'::jsonb)
        INTO v_changes
        FROM (SELECT k, coalesce(p_old -> k, 'null') AS o, coalesce(p_new -> k, 'null') AS n
                FROM jsonb_object_keys(coalesce(p_old, '{}') || coalesce(p_new, '{}')) AS k
               WHERE k NOT IN ('id', 'tenant_id', 'version', 'created_at', 'updated_at')) v
       WHERE o <> n;
      RETURN v_changes;
    END
    $fn$;
    GRANT EXECUTE ON FUNCTION record_changes(jsonb, jsonb, text[]) TO erp_app;

    -- The name of who made one version of the current tenant's records: a user's name (else
    -- e-mail), an API key's name. SECURITY DEFINER because erp_app cannot read users or
    -- api_keys; it takes the history row's key, never an actor id, so it names only people and
    -- keys that acted in the current tenant.
    CREATE FUNCTION record_history_actor_name(p_resource text, p_record_id uuid, p_version integer)
    RETURNS text LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
      SELECT CASE h.actor_type
               WHEN 'user' THEN (SELECT coalesce(nullif(u.name, ''), u.email) FROM users u WHERE u.id = h.actor_id)
               WHEN 'api_key' THEN (SELECT k.name FROM api_keys k WHERE k.id = h.actor_id AND k.tenant_id = h.tenant_id)
             END
        FROM record_history h
       WHERE h.tenant_id = erp_tenant_id() AND h.resource = p_resource
         AND h.record_id = p_record_id AND h.version = p_version
    $fn$;
    REVOKE EXECUTE ON FUNCTION record_history_actor_name(text, uuid, integer) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION record_history_actor_name(text, uuid, integer) TO erp_app;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION record_history_actor_name(text, uuid, integer);
    DROP FUNCTION record_changes(jsonb, jsonb, text[]);
    DROP TABLE record_history;
  `.execute(db);
}
