import { type Kysely, sql } from 'kysely';

/**
 * Goods and document flow (SPEC §18): line identities, what conversions count, the stock
 * ledger, the stock levels and their valuation.
 *
 * - Every line of every document gets its `id` (the engine assigns new lines theirs).
 * - `erp_lines_counted_within(lines)`: the CHECK a conversion's source keeps (generated with the
 *   catalogue, invariant `counted`): every counted quantity of a line between 0 and its
 *   `quantity`. IMMUTABLE, over the row's own lines: it holds when tables are distributed by
 *   tenant (SPEC §19). `erp_count_lines` adds what a target counts; `erp_keep_line_fields`
 *   keeps on a PATCHed line what the server set on it (its source line, its counts).
 * - `stock_ledger`, `stock_levels`, `stock_layers`: written only by `erp_stock_apply` and
 *   `erp_stock_reserve` (SECURITY DEFINER); the application's role may only read them. A level
 *   is never below zero (`CHECK (on_hand >= 0)`): the row's lock, taken in (product, location)
 *   order, is the one locking discipline, so "exactly, with many writers" is PostgreSQL's.
 *   The value lives where the quantity is: each level's `value_cents` is Σ of its ledger's, and
 *   for FIFO Σ of its layers'; nothing on hand is worth nothing.
 *
 * No foreign keys into the catalogue's tables (which the generated migrations must be able to
 * drop and create again): the engine writes only products, warehouses and locations it read in
 * the same transaction, and the catalogue's line-reference triggers keep those from deletion.
 */
const COUNTED = [
  'ordered_quantity',
  'delivered_quantity',
  'invoiced_quantity',
  'received_quantity',
  'billed_quantity',
  'credited_quantity',
];

/** Every lines field of the catalogue when this migration was written (table, column). */
const LINES: [string, string][] = [
  ['supplier_scorecards', 'criteria'],
  ['supplier_evaluations', 'scores'],
  ['product_variants', 'attribute_values'],
  ['stock_transfers', 'lines'],
  ['stock_counts', 'lines'],
  ['purchase_agreements', 'lines'],
  ['fiscal_positions', 'tax_mappings'],
  ['fiscal_positions', 'account_mappings'],
  ['holiday_lists', 'holidays'],
  ['blanket_orders', 'lines'],
  ['sales_subscriptions', 'lines'],
  ['recurring_entries', 'lines'],
  ['quotes', 'lines'],
  ['sales_orders', 'lines'],
  ['deliveries', 'lines'],
  ['invoices', 'lines'],
  ['sales_commissions', 'lines'],
  ['credit_notes', 'lines'],
  ['sales_returns', 'lines'],
  ['payment_reminders', 'lines'],
  ['expense_reports', 'lines'],
  ['salary_structures', 'components'],
  ['appraisals', 'goals'],
  ['training_events', 'attendees'],
  ['shop_calendars', 'working_hours'],
  ['bills_of_materials', 'components'],
  ['bills_of_materials', 'byproducts'],
  ['production_plans', 'lines'],
  ['project_templates', 'tasks'],
  ['purchase_requests', 'lines'],
  ['requests_for_quotation', 'suppliers'],
  ['requests_for_quotation', 'lines'],
  ['supplier_quotations', 'lines'],
  ['purchase_orders', 'lines'],
  ['goods_receipts', 'lines'],
  ['purchase_returns', 'lines'],
  ['supplier_invoices', 'lines'],
  ['debit_notes', 'lines'],
  ['payment_orders', 'lines'],
  ['journal_entries', 'lines'],
  ['landed_costs', 'receipts'],
  ['landed_costs', 'charges'],
  ['stock_adjustments', 'lines'],
  ['budgets', 'lines'],
  ['tax_returns', 'lines'],
  ['payslips', 'lines'],
  ['production_orders', 'components'],
  ['project_budgets', 'lines'],
  ['job_cards', 'time_logs'],
  ['material_consumptions', 'lines'],
  ['subcontracting_orders', 'supplied_components'],
  ['depreciation_schedules', 'lines'],
  ['asset_movements', 'lines'],
  ['maintenance_teams', 'members'],
  ['maintenance_plans', 'checklist'],
  ['asset_repairs', 'parts'],
  ['asset_insurance_policies', 'insured_assets'],
  ['asset_counts', 'lines'],
  ['service_calendars', 'working_hours'],
  ['sla_policies', 'targets'],
  ['service_contracts', 'covered_items'],
  ['service_orders', 'parts'],
];

const counted = `ARRAY[${COUNTED.map((c) => `'${c}'`).join(', ')}]`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
    CREATE FUNCTION erp_lines_counted_within(p_lines jsonb) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
    DECLARE
      v_ok boolean;
    BEGIN
      SELECT coalesce(bool_and(
          (l->>k) IS NULL
          OR ((l->>k)::numeric >= 0 AND (l->>k)::numeric <= coalesce((l->>'quantity')::numeric, 0))), true)
        INTO v_ok
        FROM jsonb_array_elements(CASE jsonb_typeof(p_lines) WHEN 'array' THEN p_lines ELSE '[]'::jsonb END) l,
             unnest(${counted}) k;
      RETURN v_ok;
    END
    $fn$;

    -- Adds to each line's counted quantity \`p_key\` what \`p_deltas\` ({line_id: signed quantity}) says.
    CREATE FUNCTION erp_count_lines(p_lines jsonb, p_key text, p_deltas jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
      SELECT coalesce(jsonb_agg(
          CASE WHEN p_deltas ? (l->>'id')
               THEN l || jsonb_build_object(p_key,
                      trim_scale(coalesce((l->>p_key)::numeric, 0) + (p_deltas->>(l->>'id'))::numeric)::text)
               ELSE l END ORDER BY o), '[]'::jsonb)
        FROM jsonb_array_elements(p_lines) WITH ORDINALITY AS e(l, o)
    $fn$;

    -- A PATCH's lines keep what the server set on the old line of the same id (its source line,
    -- its counts); a line without a match has none of it.
    CREATE FUNCTION erp_keep_line_fields(p_new jsonb, p_old jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
      SELECT coalesce(jsonb_agg(
          (n - ${counted.replace('ARRAY[', "ARRAY['source_line_id', ")})
          || coalesce((SELECT jsonb_object_agg(k, o.l->k)
                         FROM jsonb_array_elements(p_old) o(l),
                              unnest(${counted.replace('ARRAY[', "ARRAY['source_line_id', ")}) k
                        WHERE o.l->>'id' = n->>'id' AND o.l ? k), '{}'::jsonb)
          ORDER BY ord), '[]'::jsonb)
        FROM jsonb_array_elements(p_new) WITH ORDINALITY AS e(n, ord)
    $fn$;

    CREATE TABLE stock_levels (
      id uuid NOT NULL DEFAULT erp_uuidv7(),
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      product_id uuid NOT NULL,
      warehouse_id uuid NOT NULL,
      location_id uuid NOT NULL,
      on_hand numeric NOT NULL DEFAULT 0,
      reserved numeric NOT NULL DEFAULT 0,
      available numeric GENERATED ALWAYS AS (on_hand - reserved) STORED,
      value_cents bigint NOT NULL DEFAULT 0,
      version integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, product_id, location_id),
      CONSTRAINT stock_levels_on_hand_not_negative CHECK (on_hand >= 0),
      CONSTRAINT stock_levels_reserved_not_negative CHECK (reserved >= 0),
      CONSTRAINT stock_levels_value_with_quantity CHECK (value_cents >= 0 AND (on_hand > 0 OR value_cents = 0))
    );
    CREATE INDEX stock_levels_warehouse ON stock_levels (tenant_id, warehouse_id, product_id);
    CREATE INDEX stock_levels_location ON stock_levels (tenant_id, location_id);
    CREATE INDEX stock_levels_on_hand ON stock_levels (tenant_id, on_hand, id);
    CREATE INDEX stock_levels_available ON stock_levels (tenant_id, available, id);
    CREATE INDEX stock_levels_created ON stock_levels (tenant_id, created_at, id);
    CREATE INDEX stock_levels_updated ON stock_levels (tenant_id, updated_at, id);

    CREATE TABLE stock_ledger (
      id uuid NOT NULL DEFAULT erp_uuidv7(),
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      product_id uuid NOT NULL,
      warehouse_id uuid NOT NULL,
      location_id uuid NOT NULL,
      quantity numeric NOT NULL CHECK (quantity <> 0),
      unit_cost_cents numeric NOT NULL,
      value_cents bigint NOT NULL,
      on_hand_after numeric NOT NULL CHECK (on_hand_after >= 0),
      source_type text NOT NULL,
      source_id uuid NOT NULL,
      source_line_id uuid,
      posted_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX stock_ledger_product ON stock_ledger (tenant_id, product_id, id);
    CREATE INDEX stock_ledger_location ON stock_ledger (tenant_id, location_id, id);
    CREATE INDEX stock_ledger_warehouse ON stock_ledger (tenant_id, warehouse_id, id);
    CREATE INDEX stock_ledger_source ON stock_ledger (tenant_id, source_id);
    CREATE INDEX stock_ledger_posted ON stock_ledger (tenant_id, posted_at, id);

    -- FIFO: what each receipt left, consumed oldest first under the level's lock.
    CREATE TABLE stock_layers (
      id uuid NOT NULL DEFAULT erp_uuidv7(),
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      product_id uuid NOT NULL,
      location_id uuid NOT NULL,
      quantity_remaining numeric NOT NULL CHECK (quantity_remaining >= 0),
      value_remaining bigint NOT NULL CHECK (value_remaining >= 0),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX stock_layers_open ON stock_layers (tenant_id, product_id, location_id, id)
      WHERE quantity_remaining > 0;
  `)
    .execute(db);
  for (const table of ['stock_levels', 'stock_ledger', 'stock_layers']) {
    await sql
      .raw(`
      ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
      ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;
      CREATE POLICY tenant_isolation ON ${table}
        USING (tenant_id = erp_tenant_id()) WITH CHECK (tenant_id = erp_tenant_id());
      GRANT SELECT ON ${table} TO erp_app;
    `)
      .execute(db);
  }
  await sql.raw(STOCK_ENGINE).execute(db);
  await sql
    .raw(`
    GRANT EXECUTE ON FUNCTION erp_lines_counted_within(jsonb), erp_count_lines(jsonb, text, jsonb),
      erp_keep_line_fields(jsonb, jsonb), erp_stock_apply(uuid, jsonb), erp_stock_reserve(uuid, jsonb) TO erp_app;
  `)
    .execute(db);
  // Lines written before had no identity: each gets one (a posted entry's too, the one change
  // its finality allows here).
  await sql.raw('ALTER TABLE journal_entries DISABLE TRIGGER USER').execute(db);
  for (const [table, column] of LINES) {
    await sql
      .raw(`
      UPDATE ${table} SET ${column} = (
        SELECT jsonb_agg(CASE WHEN jsonb_typeof(l) = 'object' AND NOT l ? 'id'
                              THEN jsonb_build_object('id', erp_uuidv7()) || l ELSE l END ORDER BY o)
          FROM jsonb_array_elements(${column}) WITH ORDINALITY AS e(l, o))
      WHERE jsonb_typeof(${column}) = 'array' AND jsonb_array_length(${column}) > 0;
    `)
      .execute(db);
  }
  await sql.raw('ALTER TABLE journal_entries ENABLE TRIGGER USER').execute(db);
}

/**
 * The stock engine's database half. `erp_stock_apply(tenant, moves)` takes the movements of one
 * document action at internal locations, each `{product_id, warehouse_id, location_id,
 * quantity (signed), unit_cost_cents?, value_cents?, takes_value_of?, source_type, source_id,
 * source_line_id?, method, standard_cost_cents, fallback_cost_cents}`, and:
 *
 * 1. locks every level it touches (made if new), in (product, location) order, so two
 *    documents never wait on each other in opposite orders;
 * 2. takes the outgoing ones first: refused below zero (SQLSTATE EP010 with what is available),
 *    valued by the method: FIFO consumes the oldest layers, moving average takes the level's
 *    average (the last unit takes what is left), standard its standard cost (never more than
 *    the level holds);
 * 3. then the incoming ones: at `value_cents` (a transfer's: `takes_value_of` names the
 *    outgoing move whose value it carries), else `unit_cost_cents` × quantity (a receipt at
 *    its order's price; standard: the standard cost), else the level's average, else the
 *    fallback cost; FIFO adds a layer;
 * 4. writes one stock ledger entry per move and the levels; answers each move's value, in the
 *    order given.
 */
const STOCK_ENGINE = `
CREATE FUNCTION erp_stock_apply(p_tenant uuid, p_moves jsonb) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
  m record;
  lvl record;
  layer record;
  v_values bigint[] := ARRAY[]::bigint[];
  v_value bigint;
  v_left numeric;
  v_take numeric;
  v_part bigint;
  v_qty numeric;
  v_cost numeric;
  v_count integer := jsonb_array_length(p_moves);
BEGIN
  v_values := array_fill(NULL::bigint, ARRAY[greatest(v_count, 1)]);
  -- 1. The levels, made if new and locked, in one order.
  INSERT INTO stock_levels (tenant_id, product_id, warehouse_id, location_id)
  SELECT DISTINCT p_tenant, (x->>'product_id')::uuid, (x->>'warehouse_id')::uuid, (x->>'location_id')::uuid
    FROM jsonb_array_elements(p_moves) x
   ORDER BY 2, 4
  ON CONFLICT (tenant_id, product_id, location_id) DO NOTHING;
  PERFORM 1 FROM stock_levels s
   WHERE s.tenant_id = p_tenant
     AND (s.product_id, s.location_id) IN (SELECT (x->>'product_id')::uuid, (x->>'location_id')::uuid
                                             FROM jsonb_array_elements(p_moves) x)
   ORDER BY s.product_id, s.location_id
   FOR UPDATE;
  -- 2. Out, then 3. in.
  FOR m IN
    SELECT x.*, o::integer AS ord
      FROM jsonb_array_elements(p_moves) WITH ORDINALITY AS e(j, o),
           LATERAL jsonb_to_record(j) AS x(product_id uuid, warehouse_id uuid, location_id uuid,
             quantity numeric, unit_cost_cents numeric, value_cents bigint, takes_value_of integer,
             source_type text, source_id uuid, source_line_id uuid, method text,
             standard_cost_cents numeric, fallback_cost_cents numeric)
     ORDER BY (x.quantity > 0), o
  LOOP
    IF m.quantity IS NULL OR m.quantity = 0 THEN
      RAISE EXCEPTION 'a stock movement of nothing' USING ERRCODE = 'EP011',
        DETAIL = json_build_object('product_id', m.product_id, 'reason', 'zero_quantity')::text;
    END IF;
    SELECT * INTO lvl FROM stock_levels s
     WHERE s.tenant_id = p_tenant AND s.product_id = m.product_id AND s.location_id = m.location_id;
    IF m.quantity < 0 THEN
      v_qty := -m.quantity;
      IF lvl.on_hand < v_qty THEN
        RAISE EXCEPTION 'not enough stock' USING ERRCODE = 'EP010',
          DETAIL = json_build_object('product_id', m.product_id, 'location_id', m.location_id,
            'available', trim_scale(lvl.on_hand)::text, 'requested', trim_scale(v_qty)::text)::text;
      END IF;
      IF v_qty = lvl.on_hand THEN
        v_value := lvl.value_cents;
        IF m.method = 'fifo' THEN
          UPDATE stock_layers SET quantity_remaining = 0, value_remaining = 0
           WHERE tenant_id = p_tenant AND product_id = m.product_id AND location_id = m.location_id
             AND quantity_remaining > 0;
        END IF;
      ELSIF m.method = 'fifo' THEN
        v_value := 0;
        v_left := v_qty;
        FOR layer IN
          SELECT * FROM stock_layers
           WHERE tenant_id = p_tenant AND product_id = m.product_id AND location_id = m.location_id
             AND quantity_remaining > 0
           ORDER BY id
        LOOP
          EXIT WHEN v_left = 0;
          v_take := least(v_left, layer.quantity_remaining);
          v_part := CASE WHEN v_take = layer.quantity_remaining THEN layer.value_remaining
                         ELSE round(layer.value_remaining * v_take / layer.quantity_remaining)::bigint END;
          UPDATE stock_layers SET quantity_remaining = quantity_remaining - v_take,
                                  value_remaining = value_remaining - v_part
           WHERE tenant_id = p_tenant AND id = layer.id;
          v_value := v_value + v_part;
          v_left := v_left - v_take;
        END LOOP;
      ELSIF m.method = 'standard' THEN
        v_value := least(lvl.value_cents, round(v_qty * coalesce(m.standard_cost_cents, 0))::bigint);
      ELSE
        v_value := round(lvl.value_cents * v_qty / lvl.on_hand)::bigint;
      END IF;
      v_value := -v_value;
    ELSE
      v_qty := m.quantity;
      IF m.takes_value_of IS NOT NULL THEN
        v_value := -v_values[m.takes_value_of];
      ELSIF m.value_cents IS NOT NULL THEN
        v_value := m.value_cents;
      ELSE
        v_cost := CASE
          WHEN m.method = 'standard' THEN coalesce(m.standard_cost_cents, 0)
          WHEN m.unit_cost_cents IS NOT NULL THEN m.unit_cost_cents
          WHEN lvl.on_hand > 0 THEN lvl.value_cents / lvl.on_hand
          ELSE coalesce(m.fallback_cost_cents, 0) END;
        v_value := round(v_qty * v_cost)::bigint;
      END IF;
      IF m.method = 'fifo' THEN
        INSERT INTO stock_layers (tenant_id, product_id, location_id, quantity_remaining, value_remaining)
        VALUES (p_tenant, m.product_id, m.location_id, v_qty, v_value);
      END IF;
    END IF;
    UPDATE stock_levels SET on_hand = on_hand + m.quantity, value_cents = value_cents + v_value,
           version = version + 1, updated_at = now()
     WHERE tenant_id = p_tenant AND id = lvl.id;
    INSERT INTO stock_ledger (tenant_id, product_id, warehouse_id, location_id, quantity,
      unit_cost_cents, value_cents, on_hand_after, source_type, source_id, source_line_id)
    VALUES (p_tenant, m.product_id, m.warehouse_id, m.location_id, m.quantity,
      trim_scale(round(abs(v_value)::numeric / abs(m.quantity), 6)), v_value, lvl.on_hand + m.quantity,
      m.source_type, m.source_id, m.source_line_id);
    v_values[m.ord] := v_value;
  END LOOP;
  RETURN to_jsonb(v_values[1:v_count]);
END
$fn$;

-- Reservations (SPEC §18): \`reserved\` moved by each {product_id, warehouse_id, location_id,
-- quantity (signed)}, levels locked in the same order as erp_stock_apply's; never below zero.
CREATE FUNCTION erp_stock_reserve(p_tenant uuid, p_moves jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
BEGIN
  INSERT INTO stock_levels AS s (tenant_id, product_id, warehouse_id, location_id, reserved)
  SELECT p_tenant, x.product_id, x.warehouse_id, x.location_id, greatest(sum(x.quantity), 0)
    FROM jsonb_to_recordset(p_moves) AS x(product_id uuid, warehouse_id uuid, location_id uuid, quantity numeric)
   GROUP BY x.product_id, x.warehouse_id, x.location_id
   ORDER BY x.product_id, x.location_id
  ON CONFLICT (tenant_id, product_id, location_id) DO UPDATE
    SET reserved = greatest(s.reserved + (SELECT sum((y->>'quantity')::numeric) FROM jsonb_array_elements(p_moves) y
                                           WHERE (y->>'product_id')::uuid = s.product_id
                                             AND (y->>'location_id')::uuid = s.location_id), 0),
        version = s.version + 1, updated_at = now();
END
$fn$;
`;

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
    DROP FUNCTION erp_stock_reserve(uuid, jsonb);
    DROP FUNCTION erp_stock_apply(uuid, jsonb);
    DROP TABLE stock_layers, stock_ledger, stock_levels;
    DROP FUNCTION erp_keep_line_fields(jsonb, jsonb);
    DROP FUNCTION erp_count_lines(jsonb, text, jsonb);
    DROP FUNCTION erp_lines_counted_within(jsonb);
  `)
    .execute(db);
}
