import { type Kysely, sql } from 'kysely';

/**
 * References stay in their tenant wherever they are stored (issue 12):
 * - user columns (`reference(USER)`): a composite foreign key to `memberships`, and a trigger
 *   that nulls them (new version) when the member leaves the tenant;
 * - references inside line items: a trigger checking every written line (SQLSTATE 23503, the
 *   line's path in COLUMN), a GIN index, and triggers refusing to delete a row a line names.
 * Rows already stored are brought in line first (`existingRowsSql`): non-member users become
 * null; a line naming no row of its tenant stops the migration for an operator to look at.
 * Generated from the contract's catalogue with `existingRowsSql`, `referencesSql` and
 * `referencesDropSql` (src/reference-ddl.ts), then frozen; new resources get the same from
 * `resourceTableSql`, and resource-ddl.test.ts checks the two agree.
 */
const tables: { table: string; up: string; down: string }[] = [
  {
    table: 'leads',
    up: `
ALTER TABLE leads NO FORCE ROW LEVEL SECURITY;
UPDATE leads r SET owner_id = NULL, version = version + 1, updated_at = now()
 WHERE owner_id IS NOT NULL
   AND NOT EXISTS (SELECT FROM memberships m WHERE m.tenant_id = r.tenant_id AND m.user_id = r.owner_id);
ALTER TABLE leads FORCE ROW LEVEL SECURITY;
ALTER TABLE leads ADD FOREIGN KEY (tenant_id, owner_id) REFERENCES memberships (tenant_id, user_id);
CREATE FUNCTION leads_release_member() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_tenant text := current_setting('app.tenant_id', true);
BEGIN
  IF NOT EXISTS (SELECT FROM tenants WHERE id = OLD.tenant_id) THEN
    RETURN OLD;
  END IF;
  PERFORM set_config('app.tenant_id', OLD.tenant_id::text, true);
  UPDATE leads SET owner_id = CASE WHEN owner_id = OLD.user_id THEN NULL ELSE owner_id END, version = version + 1, updated_at = now()
   WHERE tenant_id = OLD.tenant_id AND (owner_id = OLD.user_id);
  PERFORM set_config('app.tenant_id', coalesce(v_tenant, ''), true);
  RETURN OLD;
END
$fn$;
CREATE TRIGGER leads_release_member BEFORE DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION leads_release_member();
`,
    down: `
DROP FUNCTION leads_release_member() CASCADE;
ALTER TABLE leads DROP CONSTRAINT leads_tenant_id_owner_id_fkey;
`,
  },
  {
    table: 'employees',
    up: `
ALTER TABLE employees NO FORCE ROW LEVEL SECURITY;
UPDATE employees r SET user_id = NULL, version = version + 1, updated_at = now()
 WHERE user_id IS NOT NULL
   AND NOT EXISTS (SELECT FROM memberships m WHERE m.tenant_id = r.tenant_id AND m.user_id = r.user_id);
ALTER TABLE employees FORCE ROW LEVEL SECURITY;
ALTER TABLE employees ADD FOREIGN KEY (tenant_id, user_id) REFERENCES memberships (tenant_id, user_id);
CREATE FUNCTION employees_release_member() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_tenant text := current_setting('app.tenant_id', true);
BEGIN
  IF NOT EXISTS (SELECT FROM tenants WHERE id = OLD.tenant_id) THEN
    RETURN OLD;
  END IF;
  PERFORM set_config('app.tenant_id', OLD.tenant_id::text, true);
  UPDATE employees SET user_id = CASE WHEN user_id = OLD.user_id THEN NULL ELSE user_id END, version = version + 1, updated_at = now()
   WHERE tenant_id = OLD.tenant_id AND (user_id = OLD.user_id);
  PERFORM set_config('app.tenant_id', coalesce(v_tenant, ''), true);
  RETURN OLD;
END
$fn$;
CREATE TRIGGER employees_release_member BEFORE DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION employees_release_member();
`,
    down: `
DROP FUNCTION employees_release_member() CASCADE;
ALTER TABLE employees DROP CONSTRAINT employees_tenant_id_user_id_fkey;
`,
  },
  {
    table: 'quotes',
    up: `
ALTER TABLE quotes NO FORCE ROW LEVEL SECURITY;
UPDATE quotes r SET lines = (
  SELECT jsonb_agg(CASE WHEN l.value ->> 'product_id' IS NULL THEN l.value
    ELSE jsonb_set(l.value, '{product_id}', to_jsonb((l.value ->> 'product_id')::uuid)) END ORDER BY l.ord)
    FROM jsonb_array_elements(r.lines) WITH ORDINALITY AS l (value, ord))
 WHERE EXISTS (SELECT FROM jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' <> (l.value ->> 'product_id')::uuid::text);
DO $do$
DECLARE
  v_bad bigint;
BEGIN
  SELECT count(*) INTO v_bad FROM quotes r, jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
     SELECT FROM products t WHERE t.tenant_id = r.tenant_id AND t.id = (l.value ->> 'product_id')::uuid);
  IF v_bad > 0 THEN
    RAISE EXCEPTION '% line(s) of quotes.lines name a product_id that is no row of products in their tenant', v_bad
      USING HINT = 'Correct or remove those lines, then migrate again.';
  END IF;
END
$do$;
ALTER TABLE quotes FORCE ROW LEVEL SECURITY;
CREATE FUNCTION quotes_line_references() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_refs text[];
  v_ids uuid[];
  v_found bigint;
  v_line bigint;
  v_id text;
BEGIN
  v_refs := ARRAY(SELECT jsonb_path_query(NEW.lines, '$[*].product_id ? (@ != null)') #>> '{}');
  v_ids := v_refs::uuid[];
  IF v_ids::text[] <> v_refs THEN
    RAISE EXCEPTION 'line references of quotes.lines must be lowercase hyphenated UUIDs'
      USING ERRCODE = 'invalid_text_representation', TABLE = 'quotes', COLUMN = 'lines';
  END IF;
  IF cardinality(v_ids) > 0 THEN
    PERFORM FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = ANY (v_ids) FOR KEY SHARE;
    GET DIAGNOSTICS v_found = ROW_COUNT;
    IF v_found < cardinality(v_ids) AND v_found < (SELECT count(DISTINCT u) FROM unnest(v_ids) AS u) THEN
      SELECT l.ord - 1, l.value ->> 'product_id' INTO v_line, v_id
        FROM jsonb_array_elements(NEW.lines) WITH ORDINALITY AS l (value, ord)
       WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
         SELECT FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = (l.value ->> 'product_id')::uuid)
       ORDER BY l.ord LIMIT 1;
      RAISE EXCEPTION 'insert or update on table "quotes" violates line reference lines[].product_id'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'quotes', CONSTRAINT = 'quotes_line_references',
          COLUMN = format('lines.%s.product_id', v_line),
          DETAIL = format('Line %s: no row of products in this tenant has id %s.', v_line, v_id);
    END IF;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER line_references BEFORE INSERT OR UPDATE OF tenant_id, lines ON quotes
  FOR EACH ROW EXECUTE FUNCTION quotes_line_references();
CREATE INDEX quotes_line_references ON quotes USING gin (lines jsonb_path_ops);
CREATE FUNCTION quotes_line_referenced() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'products' AND EXISTS (
    SELECT FROM quotes r
     WHERE r.tenant_id = OLD.tenant_id AND r.lines @> jsonb_build_array(jsonb_build_object('product_id', OLD.id))) THEN
    RAISE EXCEPTION 'update or delete on table "products" violates line reference lines[].product_id from table "quotes"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'quotes', CONSTRAINT = 'quotes_line_references';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER quotes_line_references AFTER DELETE OR UPDATE OF tenant_id, id ON products
  FOR EACH ROW EXECUTE FUNCTION quotes_line_referenced();
`,
    down: `
DROP FUNCTION quotes_line_referenced() CASCADE;
DROP TRIGGER line_references ON quotes;
DROP FUNCTION quotes_line_references();
DROP INDEX quotes_line_references;
`,
  },
  {
    table: 'sales_orders',
    up: `
ALTER TABLE sales_orders NO FORCE ROW LEVEL SECURITY;
UPDATE sales_orders r SET lines = (
  SELECT jsonb_agg(CASE WHEN l.value ->> 'product_id' IS NULL THEN l.value
    ELSE jsonb_set(l.value, '{product_id}', to_jsonb((l.value ->> 'product_id')::uuid)) END ORDER BY l.ord)
    FROM jsonb_array_elements(r.lines) WITH ORDINALITY AS l (value, ord))
 WHERE EXISTS (SELECT FROM jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' <> (l.value ->> 'product_id')::uuid::text);
DO $do$
DECLARE
  v_bad bigint;
BEGIN
  SELECT count(*) INTO v_bad FROM sales_orders r, jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
     SELECT FROM products t WHERE t.tenant_id = r.tenant_id AND t.id = (l.value ->> 'product_id')::uuid);
  IF v_bad > 0 THEN
    RAISE EXCEPTION '% line(s) of sales_orders.lines name a product_id that is no row of products in their tenant', v_bad
      USING HINT = 'Correct or remove those lines, then migrate again.';
  END IF;
END
$do$;
ALTER TABLE sales_orders FORCE ROW LEVEL SECURITY;
CREATE FUNCTION sales_orders_line_references() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_refs text[];
  v_ids uuid[];
  v_found bigint;
  v_line bigint;
  v_id text;
BEGIN
  v_refs := ARRAY(SELECT jsonb_path_query(NEW.lines, '$[*].product_id ? (@ != null)') #>> '{}');
  v_ids := v_refs::uuid[];
  IF v_ids::text[] <> v_refs THEN
    RAISE EXCEPTION 'line references of sales_orders.lines must be lowercase hyphenated UUIDs'
      USING ERRCODE = 'invalid_text_representation', TABLE = 'sales_orders', COLUMN = 'lines';
  END IF;
  IF cardinality(v_ids) > 0 THEN
    PERFORM FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = ANY (v_ids) FOR KEY SHARE;
    GET DIAGNOSTICS v_found = ROW_COUNT;
    IF v_found < cardinality(v_ids) AND v_found < (SELECT count(DISTINCT u) FROM unnest(v_ids) AS u) THEN
      SELECT l.ord - 1, l.value ->> 'product_id' INTO v_line, v_id
        FROM jsonb_array_elements(NEW.lines) WITH ORDINALITY AS l (value, ord)
       WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
         SELECT FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = (l.value ->> 'product_id')::uuid)
       ORDER BY l.ord LIMIT 1;
      RAISE EXCEPTION 'insert or update on table "sales_orders" violates line reference lines[].product_id'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'sales_orders', CONSTRAINT = 'sales_orders_line_references',
          COLUMN = format('lines.%s.product_id', v_line),
          DETAIL = format('Line %s: no row of products in this tenant has id %s.', v_line, v_id);
    END IF;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER line_references BEFORE INSERT OR UPDATE OF tenant_id, lines ON sales_orders
  FOR EACH ROW EXECUTE FUNCTION sales_orders_line_references();
CREATE INDEX sales_orders_line_references ON sales_orders USING gin (lines jsonb_path_ops);
CREATE FUNCTION sales_orders_line_referenced() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'products' AND EXISTS (
    SELECT FROM sales_orders r
     WHERE r.tenant_id = OLD.tenant_id AND r.lines @> jsonb_build_array(jsonb_build_object('product_id', OLD.id))) THEN
    RAISE EXCEPTION 'update or delete on table "products" violates line reference lines[].product_id from table "sales_orders"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'sales_orders', CONSTRAINT = 'sales_orders_line_references';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER sales_orders_line_references AFTER DELETE OR UPDATE OF tenant_id, id ON products
  FOR EACH ROW EXECUTE FUNCTION sales_orders_line_referenced();
`,
    down: `
DROP FUNCTION sales_orders_line_referenced() CASCADE;
DROP TRIGGER line_references ON sales_orders;
DROP FUNCTION sales_orders_line_references();
DROP INDEX sales_orders_line_references;
`,
  },
  {
    table: 'deliveries',
    up: `
ALTER TABLE deliveries NO FORCE ROW LEVEL SECURITY;
UPDATE deliveries r SET lines = (
  SELECT jsonb_agg(CASE WHEN l.value ->> 'product_id' IS NULL THEN l.value
    ELSE jsonb_set(l.value, '{product_id}', to_jsonb((l.value ->> 'product_id')::uuid)) END ORDER BY l.ord)
    FROM jsonb_array_elements(r.lines) WITH ORDINALITY AS l (value, ord))
 WHERE EXISTS (SELECT FROM jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' <> (l.value ->> 'product_id')::uuid::text);
DO $do$
DECLARE
  v_bad bigint;
BEGIN
  SELECT count(*) INTO v_bad FROM deliveries r, jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
     SELECT FROM products t WHERE t.tenant_id = r.tenant_id AND t.id = (l.value ->> 'product_id')::uuid);
  IF v_bad > 0 THEN
    RAISE EXCEPTION '% line(s) of deliveries.lines name a product_id that is no row of products in their tenant', v_bad
      USING HINT = 'Correct or remove those lines, then migrate again.';
  END IF;
END
$do$;
ALTER TABLE deliveries FORCE ROW LEVEL SECURITY;
CREATE FUNCTION deliveries_line_references() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_refs text[];
  v_ids uuid[];
  v_found bigint;
  v_line bigint;
  v_id text;
BEGIN
  v_refs := ARRAY(SELECT jsonb_path_query(NEW.lines, '$[*].product_id ? (@ != null)') #>> '{}');
  v_ids := v_refs::uuid[];
  IF v_ids::text[] <> v_refs THEN
    RAISE EXCEPTION 'line references of deliveries.lines must be lowercase hyphenated UUIDs'
      USING ERRCODE = 'invalid_text_representation', TABLE = 'deliveries', COLUMN = 'lines';
  END IF;
  IF cardinality(v_ids) > 0 THEN
    PERFORM FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = ANY (v_ids) FOR KEY SHARE;
    GET DIAGNOSTICS v_found = ROW_COUNT;
    IF v_found < cardinality(v_ids) AND v_found < (SELECT count(DISTINCT u) FROM unnest(v_ids) AS u) THEN
      SELECT l.ord - 1, l.value ->> 'product_id' INTO v_line, v_id
        FROM jsonb_array_elements(NEW.lines) WITH ORDINALITY AS l (value, ord)
       WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
         SELECT FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = (l.value ->> 'product_id')::uuid)
       ORDER BY l.ord LIMIT 1;
      RAISE EXCEPTION 'insert or update on table "deliveries" violates line reference lines[].product_id'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'deliveries', CONSTRAINT = 'deliveries_line_references',
          COLUMN = format('lines.%s.product_id', v_line),
          DETAIL = format('Line %s: no row of products in this tenant has id %s.', v_line, v_id);
    END IF;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER line_references BEFORE INSERT OR UPDATE OF tenant_id, lines ON deliveries
  FOR EACH ROW EXECUTE FUNCTION deliveries_line_references();
CREATE INDEX deliveries_line_references ON deliveries USING gin (lines jsonb_path_ops);
CREATE FUNCTION deliveries_line_referenced() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'products' AND EXISTS (
    SELECT FROM deliveries r
     WHERE r.tenant_id = OLD.tenant_id AND r.lines @> jsonb_build_array(jsonb_build_object('product_id', OLD.id))) THEN
    RAISE EXCEPTION 'update or delete on table "products" violates line reference lines[].product_id from table "deliveries"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'deliveries', CONSTRAINT = 'deliveries_line_references';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER deliveries_line_references AFTER DELETE OR UPDATE OF tenant_id, id ON products
  FOR EACH ROW EXECUTE FUNCTION deliveries_line_referenced();
`,
    down: `
DROP FUNCTION deliveries_line_referenced() CASCADE;
DROP TRIGGER line_references ON deliveries;
DROP FUNCTION deliveries_line_references();
DROP INDEX deliveries_line_references;
`,
  },
  {
    table: 'invoices',
    up: `
ALTER TABLE invoices NO FORCE ROW LEVEL SECURITY;
UPDATE invoices r SET lines = (
  SELECT jsonb_agg(CASE WHEN l.value ->> 'product_id' IS NULL THEN l.value
    ELSE jsonb_set(l.value, '{product_id}', to_jsonb((l.value ->> 'product_id')::uuid)) END ORDER BY l.ord)
    FROM jsonb_array_elements(r.lines) WITH ORDINALITY AS l (value, ord))
 WHERE EXISTS (SELECT FROM jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' <> (l.value ->> 'product_id')::uuid::text);
DO $do$
DECLARE
  v_bad bigint;
BEGIN
  SELECT count(*) INTO v_bad FROM invoices r, jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
     SELECT FROM products t WHERE t.tenant_id = r.tenant_id AND t.id = (l.value ->> 'product_id')::uuid);
  IF v_bad > 0 THEN
    RAISE EXCEPTION '% line(s) of invoices.lines name a product_id that is no row of products in their tenant', v_bad
      USING HINT = 'Correct or remove those lines, then migrate again.';
  END IF;
END
$do$;
ALTER TABLE invoices FORCE ROW LEVEL SECURITY;
CREATE FUNCTION invoices_line_references() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_refs text[];
  v_ids uuid[];
  v_found bigint;
  v_line bigint;
  v_id text;
BEGIN
  v_refs := ARRAY(SELECT jsonb_path_query(NEW.lines, '$[*].product_id ? (@ != null)') #>> '{}');
  v_ids := v_refs::uuid[];
  IF v_ids::text[] <> v_refs THEN
    RAISE EXCEPTION 'line references of invoices.lines must be lowercase hyphenated UUIDs'
      USING ERRCODE = 'invalid_text_representation', TABLE = 'invoices', COLUMN = 'lines';
  END IF;
  IF cardinality(v_ids) > 0 THEN
    PERFORM FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = ANY (v_ids) FOR KEY SHARE;
    GET DIAGNOSTICS v_found = ROW_COUNT;
    IF v_found < cardinality(v_ids) AND v_found < (SELECT count(DISTINCT u) FROM unnest(v_ids) AS u) THEN
      SELECT l.ord - 1, l.value ->> 'product_id' INTO v_line, v_id
        FROM jsonb_array_elements(NEW.lines) WITH ORDINALITY AS l (value, ord)
       WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
         SELECT FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = (l.value ->> 'product_id')::uuid)
       ORDER BY l.ord LIMIT 1;
      RAISE EXCEPTION 'insert or update on table "invoices" violates line reference lines[].product_id'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'invoices', CONSTRAINT = 'invoices_line_references',
          COLUMN = format('lines.%s.product_id', v_line),
          DETAIL = format('Line %s: no row of products in this tenant has id %s.', v_line, v_id);
    END IF;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER line_references BEFORE INSERT OR UPDATE OF tenant_id, lines ON invoices
  FOR EACH ROW EXECUTE FUNCTION invoices_line_references();
CREATE INDEX invoices_line_references ON invoices USING gin (lines jsonb_path_ops);
CREATE FUNCTION invoices_line_referenced() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'products' AND EXISTS (
    SELECT FROM invoices r
     WHERE r.tenant_id = OLD.tenant_id AND r.lines @> jsonb_build_array(jsonb_build_object('product_id', OLD.id))) THEN
    RAISE EXCEPTION 'update or delete on table "products" violates line reference lines[].product_id from table "invoices"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'invoices', CONSTRAINT = 'invoices_line_references';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER invoices_line_references AFTER DELETE OR UPDATE OF tenant_id, id ON products
  FOR EACH ROW EXECUTE FUNCTION invoices_line_referenced();
`,
    down: `
DROP FUNCTION invoices_line_referenced() CASCADE;
DROP TRIGGER line_references ON invoices;
DROP FUNCTION invoices_line_references();
DROP INDEX invoices_line_references;
`,
  },
  {
    table: 'credit_notes',
    up: `
ALTER TABLE credit_notes NO FORCE ROW LEVEL SECURITY;
UPDATE credit_notes r SET lines = (
  SELECT jsonb_agg(CASE WHEN l.value ->> 'product_id' IS NULL THEN l.value
    ELSE jsonb_set(l.value, '{product_id}', to_jsonb((l.value ->> 'product_id')::uuid)) END ORDER BY l.ord)
    FROM jsonb_array_elements(r.lines) WITH ORDINALITY AS l (value, ord))
 WHERE EXISTS (SELECT FROM jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' <> (l.value ->> 'product_id')::uuid::text);
DO $do$
DECLARE
  v_bad bigint;
BEGIN
  SELECT count(*) INTO v_bad FROM credit_notes r, jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
     SELECT FROM products t WHERE t.tenant_id = r.tenant_id AND t.id = (l.value ->> 'product_id')::uuid);
  IF v_bad > 0 THEN
    RAISE EXCEPTION '% line(s) of credit_notes.lines name a product_id that is no row of products in their tenant', v_bad
      USING HINT = 'Correct or remove those lines, then migrate again.';
  END IF;
END
$do$;
ALTER TABLE credit_notes FORCE ROW LEVEL SECURITY;
CREATE FUNCTION credit_notes_line_references() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_refs text[];
  v_ids uuid[];
  v_found bigint;
  v_line bigint;
  v_id text;
BEGIN
  v_refs := ARRAY(SELECT jsonb_path_query(NEW.lines, '$[*].product_id ? (@ != null)') #>> '{}');
  v_ids := v_refs::uuid[];
  IF v_ids::text[] <> v_refs THEN
    RAISE EXCEPTION 'line references of credit_notes.lines must be lowercase hyphenated UUIDs'
      USING ERRCODE = 'invalid_text_representation', TABLE = 'credit_notes', COLUMN = 'lines';
  END IF;
  IF cardinality(v_ids) > 0 THEN
    PERFORM FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = ANY (v_ids) FOR KEY SHARE;
    GET DIAGNOSTICS v_found = ROW_COUNT;
    IF v_found < cardinality(v_ids) AND v_found < (SELECT count(DISTINCT u) FROM unnest(v_ids) AS u) THEN
      SELECT l.ord - 1, l.value ->> 'product_id' INTO v_line, v_id
        FROM jsonb_array_elements(NEW.lines) WITH ORDINALITY AS l (value, ord)
       WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
         SELECT FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = (l.value ->> 'product_id')::uuid)
       ORDER BY l.ord LIMIT 1;
      RAISE EXCEPTION 'insert or update on table "credit_notes" violates line reference lines[].product_id'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'credit_notes', CONSTRAINT = 'credit_notes_line_references',
          COLUMN = format('lines.%s.product_id', v_line),
          DETAIL = format('Line %s: no row of products in this tenant has id %s.', v_line, v_id);
    END IF;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER line_references BEFORE INSERT OR UPDATE OF tenant_id, lines ON credit_notes
  FOR EACH ROW EXECUTE FUNCTION credit_notes_line_references();
CREATE INDEX credit_notes_line_references ON credit_notes USING gin (lines jsonb_path_ops);
CREATE FUNCTION credit_notes_line_referenced() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'products' AND EXISTS (
    SELECT FROM credit_notes r
     WHERE r.tenant_id = OLD.tenant_id AND r.lines @> jsonb_build_array(jsonb_build_object('product_id', OLD.id))) THEN
    RAISE EXCEPTION 'update or delete on table "products" violates line reference lines[].product_id from table "credit_notes"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'credit_notes', CONSTRAINT = 'credit_notes_line_references';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER credit_notes_line_references AFTER DELETE OR UPDATE OF tenant_id, id ON products
  FOR EACH ROW EXECUTE FUNCTION credit_notes_line_referenced();
`,
    down: `
DROP FUNCTION credit_notes_line_referenced() CASCADE;
DROP TRIGGER line_references ON credit_notes;
DROP FUNCTION credit_notes_line_references();
DROP INDEX credit_notes_line_references;
`,
  },
  {
    table: 'purchase_orders',
    up: `
ALTER TABLE purchase_orders NO FORCE ROW LEVEL SECURITY;
UPDATE purchase_orders r SET lines = (
  SELECT jsonb_agg(CASE WHEN l.value ->> 'product_id' IS NULL THEN l.value
    ELSE jsonb_set(l.value, '{product_id}', to_jsonb((l.value ->> 'product_id')::uuid)) END ORDER BY l.ord)
    FROM jsonb_array_elements(r.lines) WITH ORDINALITY AS l (value, ord))
 WHERE EXISTS (SELECT FROM jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' <> (l.value ->> 'product_id')::uuid::text);
DO $do$
DECLARE
  v_bad bigint;
BEGIN
  SELECT count(*) INTO v_bad FROM purchase_orders r, jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
     SELECT FROM products t WHERE t.tenant_id = r.tenant_id AND t.id = (l.value ->> 'product_id')::uuid);
  IF v_bad > 0 THEN
    RAISE EXCEPTION '% line(s) of purchase_orders.lines name a product_id that is no row of products in their tenant', v_bad
      USING HINT = 'Correct or remove those lines, then migrate again.';
  END IF;
END
$do$;
ALTER TABLE purchase_orders FORCE ROW LEVEL SECURITY;
CREATE FUNCTION purchase_orders_line_references() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_refs text[];
  v_ids uuid[];
  v_found bigint;
  v_line bigint;
  v_id text;
BEGIN
  v_refs := ARRAY(SELECT jsonb_path_query(NEW.lines, '$[*].product_id ? (@ != null)') #>> '{}');
  v_ids := v_refs::uuid[];
  IF v_ids::text[] <> v_refs THEN
    RAISE EXCEPTION 'line references of purchase_orders.lines must be lowercase hyphenated UUIDs'
      USING ERRCODE = 'invalid_text_representation', TABLE = 'purchase_orders', COLUMN = 'lines';
  END IF;
  IF cardinality(v_ids) > 0 THEN
    PERFORM FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = ANY (v_ids) FOR KEY SHARE;
    GET DIAGNOSTICS v_found = ROW_COUNT;
    IF v_found < cardinality(v_ids) AND v_found < (SELECT count(DISTINCT u) FROM unnest(v_ids) AS u) THEN
      SELECT l.ord - 1, l.value ->> 'product_id' INTO v_line, v_id
        FROM jsonb_array_elements(NEW.lines) WITH ORDINALITY AS l (value, ord)
       WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
         SELECT FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = (l.value ->> 'product_id')::uuid)
       ORDER BY l.ord LIMIT 1;
      RAISE EXCEPTION 'insert or update on table "purchase_orders" violates line reference lines[].product_id'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'purchase_orders', CONSTRAINT = 'purchase_orders_line_references',
          COLUMN = format('lines.%s.product_id', v_line),
          DETAIL = format('Line %s: no row of products in this tenant has id %s.', v_line, v_id);
    END IF;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER line_references BEFORE INSERT OR UPDATE OF tenant_id, lines ON purchase_orders
  FOR EACH ROW EXECUTE FUNCTION purchase_orders_line_references();
CREATE INDEX purchase_orders_line_references ON purchase_orders USING gin (lines jsonb_path_ops);
CREATE FUNCTION purchase_orders_line_referenced() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'products' AND EXISTS (
    SELECT FROM purchase_orders r
     WHERE r.tenant_id = OLD.tenant_id AND r.lines @> jsonb_build_array(jsonb_build_object('product_id', OLD.id))) THEN
    RAISE EXCEPTION 'update or delete on table "products" violates line reference lines[].product_id from table "purchase_orders"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'purchase_orders', CONSTRAINT = 'purchase_orders_line_references';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER purchase_orders_line_references AFTER DELETE OR UPDATE OF tenant_id, id ON products
  FOR EACH ROW EXECUTE FUNCTION purchase_orders_line_referenced();
`,
    down: `
DROP FUNCTION purchase_orders_line_referenced() CASCADE;
DROP TRIGGER line_references ON purchase_orders;
DROP FUNCTION purchase_orders_line_references();
DROP INDEX purchase_orders_line_references;
`,
  },
  {
    table: 'goods_receipts',
    up: `
ALTER TABLE goods_receipts NO FORCE ROW LEVEL SECURITY;
UPDATE goods_receipts r SET lines = (
  SELECT jsonb_agg(CASE WHEN l.value ->> 'product_id' IS NULL THEN l.value
    ELSE jsonb_set(l.value, '{product_id}', to_jsonb((l.value ->> 'product_id')::uuid)) END ORDER BY l.ord)
    FROM jsonb_array_elements(r.lines) WITH ORDINALITY AS l (value, ord))
 WHERE EXISTS (SELECT FROM jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' <> (l.value ->> 'product_id')::uuid::text);
DO $do$
DECLARE
  v_bad bigint;
BEGIN
  SELECT count(*) INTO v_bad FROM goods_receipts r, jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
     SELECT FROM products t WHERE t.tenant_id = r.tenant_id AND t.id = (l.value ->> 'product_id')::uuid);
  IF v_bad > 0 THEN
    RAISE EXCEPTION '% line(s) of goods_receipts.lines name a product_id that is no row of products in their tenant', v_bad
      USING HINT = 'Correct or remove those lines, then migrate again.';
  END IF;
END
$do$;
ALTER TABLE goods_receipts FORCE ROW LEVEL SECURITY;
CREATE FUNCTION goods_receipts_line_references() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_refs text[];
  v_ids uuid[];
  v_found bigint;
  v_line bigint;
  v_id text;
BEGIN
  v_refs := ARRAY(SELECT jsonb_path_query(NEW.lines, '$[*].product_id ? (@ != null)') #>> '{}');
  v_ids := v_refs::uuid[];
  IF v_ids::text[] <> v_refs THEN
    RAISE EXCEPTION 'line references of goods_receipts.lines must be lowercase hyphenated UUIDs'
      USING ERRCODE = 'invalid_text_representation', TABLE = 'goods_receipts', COLUMN = 'lines';
  END IF;
  IF cardinality(v_ids) > 0 THEN
    PERFORM FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = ANY (v_ids) FOR KEY SHARE;
    GET DIAGNOSTICS v_found = ROW_COUNT;
    IF v_found < cardinality(v_ids) AND v_found < (SELECT count(DISTINCT u) FROM unnest(v_ids) AS u) THEN
      SELECT l.ord - 1, l.value ->> 'product_id' INTO v_line, v_id
        FROM jsonb_array_elements(NEW.lines) WITH ORDINALITY AS l (value, ord)
       WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
         SELECT FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = (l.value ->> 'product_id')::uuid)
       ORDER BY l.ord LIMIT 1;
      RAISE EXCEPTION 'insert or update on table "goods_receipts" violates line reference lines[].product_id'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'goods_receipts', CONSTRAINT = 'goods_receipts_line_references',
          COLUMN = format('lines.%s.product_id', v_line),
          DETAIL = format('Line %s: no row of products in this tenant has id %s.', v_line, v_id);
    END IF;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER line_references BEFORE INSERT OR UPDATE OF tenant_id, lines ON goods_receipts
  FOR EACH ROW EXECUTE FUNCTION goods_receipts_line_references();
CREATE INDEX goods_receipts_line_references ON goods_receipts USING gin (lines jsonb_path_ops);
CREATE FUNCTION goods_receipts_line_referenced() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'products' AND EXISTS (
    SELECT FROM goods_receipts r
     WHERE r.tenant_id = OLD.tenant_id AND r.lines @> jsonb_build_array(jsonb_build_object('product_id', OLD.id))) THEN
    RAISE EXCEPTION 'update or delete on table "products" violates line reference lines[].product_id from table "goods_receipts"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'goods_receipts', CONSTRAINT = 'goods_receipts_line_references';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER goods_receipts_line_references AFTER DELETE OR UPDATE OF tenant_id, id ON products
  FOR EACH ROW EXECUTE FUNCTION goods_receipts_line_referenced();
`,
    down: `
DROP FUNCTION goods_receipts_line_referenced() CASCADE;
DROP TRIGGER line_references ON goods_receipts;
DROP FUNCTION goods_receipts_line_references();
DROP INDEX goods_receipts_line_references;
`,
  },
  {
    table: 'supplier_invoices',
    up: `
ALTER TABLE supplier_invoices NO FORCE ROW LEVEL SECURITY;
UPDATE supplier_invoices r SET lines = (
  SELECT jsonb_agg(CASE WHEN l.value ->> 'product_id' IS NULL THEN l.value
    ELSE jsonb_set(l.value, '{product_id}', to_jsonb((l.value ->> 'product_id')::uuid)) END ORDER BY l.ord)
    FROM jsonb_array_elements(r.lines) WITH ORDINALITY AS l (value, ord))
 WHERE EXISTS (SELECT FROM jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' <> (l.value ->> 'product_id')::uuid::text);
DO $do$
DECLARE
  v_bad bigint;
BEGIN
  SELECT count(*) INTO v_bad FROM supplier_invoices r, jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
     SELECT FROM products t WHERE t.tenant_id = r.tenant_id AND t.id = (l.value ->> 'product_id')::uuid);
  IF v_bad > 0 THEN
    RAISE EXCEPTION '% line(s) of supplier_invoices.lines name a product_id that is no row of products in their tenant', v_bad
      USING HINT = 'Correct or remove those lines, then migrate again.';
  END IF;
END
$do$;
ALTER TABLE supplier_invoices FORCE ROW LEVEL SECURITY;
CREATE FUNCTION supplier_invoices_line_references() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_refs text[];
  v_ids uuid[];
  v_found bigint;
  v_line bigint;
  v_id text;
BEGIN
  v_refs := ARRAY(SELECT jsonb_path_query(NEW.lines, '$[*].product_id ? (@ != null)') #>> '{}');
  v_ids := v_refs::uuid[];
  IF v_ids::text[] <> v_refs THEN
    RAISE EXCEPTION 'line references of supplier_invoices.lines must be lowercase hyphenated UUIDs'
      USING ERRCODE = 'invalid_text_representation', TABLE = 'supplier_invoices', COLUMN = 'lines';
  END IF;
  IF cardinality(v_ids) > 0 THEN
    PERFORM FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = ANY (v_ids) FOR KEY SHARE;
    GET DIAGNOSTICS v_found = ROW_COUNT;
    IF v_found < cardinality(v_ids) AND v_found < (SELECT count(DISTINCT u) FROM unnest(v_ids) AS u) THEN
      SELECT l.ord - 1, l.value ->> 'product_id' INTO v_line, v_id
        FROM jsonb_array_elements(NEW.lines) WITH ORDINALITY AS l (value, ord)
       WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
         SELECT FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = (l.value ->> 'product_id')::uuid)
       ORDER BY l.ord LIMIT 1;
      RAISE EXCEPTION 'insert or update on table "supplier_invoices" violates line reference lines[].product_id'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'supplier_invoices', CONSTRAINT = 'supplier_invoices_line_references',
          COLUMN = format('lines.%s.product_id', v_line),
          DETAIL = format('Line %s: no row of products in this tenant has id %s.', v_line, v_id);
    END IF;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER line_references BEFORE INSERT OR UPDATE OF tenant_id, lines ON supplier_invoices
  FOR EACH ROW EXECUTE FUNCTION supplier_invoices_line_references();
CREATE INDEX supplier_invoices_line_references ON supplier_invoices USING gin (lines jsonb_path_ops);
CREATE FUNCTION supplier_invoices_line_referenced() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'products' AND EXISTS (
    SELECT FROM supplier_invoices r
     WHERE r.tenant_id = OLD.tenant_id AND r.lines @> jsonb_build_array(jsonb_build_object('product_id', OLD.id))) THEN
    RAISE EXCEPTION 'update or delete on table "products" violates line reference lines[].product_id from table "supplier_invoices"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'supplier_invoices', CONSTRAINT = 'supplier_invoices_line_references';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER supplier_invoices_line_references AFTER DELETE OR UPDATE OF tenant_id, id ON products
  FOR EACH ROW EXECUTE FUNCTION supplier_invoices_line_referenced();
`,
    down: `
DROP FUNCTION supplier_invoices_line_referenced() CASCADE;
DROP TRIGGER line_references ON supplier_invoices;
DROP FUNCTION supplier_invoices_line_references();
DROP INDEX supplier_invoices_line_references;
`,
  },
  {
    table: 'production_orders',
    up: `
ALTER TABLE production_orders NO FORCE ROW LEVEL SECURITY;
UPDATE production_orders r SET components = (
  SELECT jsonb_agg(CASE WHEN l.value ->> 'product_id' IS NULL THEN l.value
    ELSE jsonb_set(l.value, '{product_id}', to_jsonb((l.value ->> 'product_id')::uuid)) END ORDER BY l.ord)
    FROM jsonb_array_elements(r.components) WITH ORDINALITY AS l (value, ord))
 WHERE EXISTS (SELECT FROM jsonb_array_elements(r.components) AS l (value)
   WHERE l.value ->> 'product_id' <> (l.value ->> 'product_id')::uuid::text);
DO $do$
DECLARE
  v_bad bigint;
BEGIN
  SELECT count(*) INTO v_bad FROM production_orders r, jsonb_array_elements(r.components) AS l (value)
   WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
     SELECT FROM products t WHERE t.tenant_id = r.tenant_id AND t.id = (l.value ->> 'product_id')::uuid);
  IF v_bad > 0 THEN
    RAISE EXCEPTION '% line(s) of production_orders.components name a product_id that is no row of products in their tenant', v_bad
      USING HINT = 'Correct or remove those lines, then migrate again.';
  END IF;
END
$do$;
ALTER TABLE production_orders FORCE ROW LEVEL SECURITY;
CREATE FUNCTION production_orders_line_references() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_refs text[];
  v_ids uuid[];
  v_found bigint;
  v_line bigint;
  v_id text;
BEGIN
  v_refs := ARRAY(SELECT jsonb_path_query(NEW.components, '$[*].product_id ? (@ != null)') #>> '{}');
  v_ids := v_refs::uuid[];
  IF v_ids::text[] <> v_refs THEN
    RAISE EXCEPTION 'line references of production_orders.components must be lowercase hyphenated UUIDs'
      USING ERRCODE = 'invalid_text_representation', TABLE = 'production_orders', COLUMN = 'components';
  END IF;
  IF cardinality(v_ids) > 0 THEN
    PERFORM FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = ANY (v_ids) FOR KEY SHARE;
    GET DIAGNOSTICS v_found = ROW_COUNT;
    IF v_found < cardinality(v_ids) AND v_found < (SELECT count(DISTINCT u) FROM unnest(v_ids) AS u) THEN
      SELECT l.ord - 1, l.value ->> 'product_id' INTO v_line, v_id
        FROM jsonb_array_elements(NEW.components) WITH ORDINALITY AS l (value, ord)
       WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
         SELECT FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = (l.value ->> 'product_id')::uuid)
       ORDER BY l.ord LIMIT 1;
      RAISE EXCEPTION 'insert or update on table "production_orders" violates line reference components[].product_id'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'production_orders', CONSTRAINT = 'production_orders_line_references',
          COLUMN = format('components.%s.product_id', v_line),
          DETAIL = format('Line %s: no row of products in this tenant has id %s.', v_line, v_id);
    END IF;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER line_references BEFORE INSERT OR UPDATE OF tenant_id, components ON production_orders
  FOR EACH ROW EXECUTE FUNCTION production_orders_line_references();
CREATE INDEX production_orders_line_references ON production_orders USING gin (components jsonb_path_ops);
CREATE FUNCTION production_orders_line_referenced() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'products' AND EXISTS (
    SELECT FROM production_orders r
     WHERE r.tenant_id = OLD.tenant_id AND r.components @> jsonb_build_array(jsonb_build_object('product_id', OLD.id))) THEN
    RAISE EXCEPTION 'update or delete on table "products" violates line reference components[].product_id from table "production_orders"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'production_orders', CONSTRAINT = 'production_orders_line_references';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER production_orders_line_references AFTER DELETE OR UPDATE OF tenant_id, id ON products
  FOR EACH ROW EXECUTE FUNCTION production_orders_line_referenced();
`,
    down: `
DROP FUNCTION production_orders_line_referenced() CASCADE;
DROP TRIGGER line_references ON production_orders;
DROP FUNCTION production_orders_line_references();
DROP INDEX production_orders_line_references;
`,
  },
  {
    table: 'expense_reports',
    up: `
ALTER TABLE expense_reports NO FORCE ROW LEVEL SECURITY;
UPDATE expense_reports r SET lines = (
  SELECT jsonb_agg(CASE WHEN l.value ->> 'product_id' IS NULL THEN l.value
    ELSE jsonb_set(l.value, '{product_id}', to_jsonb((l.value ->> 'product_id')::uuid)) END ORDER BY l.ord)
    FROM jsonb_array_elements(r.lines) WITH ORDINALITY AS l (value, ord))
 WHERE EXISTS (SELECT FROM jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' <> (l.value ->> 'product_id')::uuid::text);
DO $do$
DECLARE
  v_bad bigint;
BEGIN
  SELECT count(*) INTO v_bad FROM expense_reports r, jsonb_array_elements(r.lines) AS l (value)
   WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
     SELECT FROM products t WHERE t.tenant_id = r.tenant_id AND t.id = (l.value ->> 'product_id')::uuid);
  IF v_bad > 0 THEN
    RAISE EXCEPTION '% line(s) of expense_reports.lines name a product_id that is no row of products in their tenant', v_bad
      USING HINT = 'Correct or remove those lines, then migrate again.';
  END IF;
END
$do$;
ALTER TABLE expense_reports FORCE ROW LEVEL SECURITY;
CREATE FUNCTION expense_reports_line_references() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_refs text[];
  v_ids uuid[];
  v_found bigint;
  v_line bigint;
  v_id text;
BEGIN
  v_refs := ARRAY(SELECT jsonb_path_query(NEW.lines, '$[*].product_id ? (@ != null)') #>> '{}');
  v_ids := v_refs::uuid[];
  IF v_ids::text[] <> v_refs THEN
    RAISE EXCEPTION 'line references of expense_reports.lines must be lowercase hyphenated UUIDs'
      USING ERRCODE = 'invalid_text_representation', TABLE = 'expense_reports', COLUMN = 'lines';
  END IF;
  IF cardinality(v_ids) > 0 THEN
    PERFORM FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = ANY (v_ids) FOR KEY SHARE;
    GET DIAGNOSTICS v_found = ROW_COUNT;
    IF v_found < cardinality(v_ids) AND v_found < (SELECT count(DISTINCT u) FROM unnest(v_ids) AS u) THEN
      SELECT l.ord - 1, l.value ->> 'product_id' INTO v_line, v_id
        FROM jsonb_array_elements(NEW.lines) WITH ORDINALITY AS l (value, ord)
       WHERE l.value ->> 'product_id' IS NOT NULL AND NOT EXISTS (
         SELECT FROM products t WHERE t.tenant_id = NEW.tenant_id AND t.id = (l.value ->> 'product_id')::uuid)
       ORDER BY l.ord LIMIT 1;
      RAISE EXCEPTION 'insert or update on table "expense_reports" violates line reference lines[].product_id'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'expense_reports', CONSTRAINT = 'expense_reports_line_references',
          COLUMN = format('lines.%s.product_id', v_line),
          DETAIL = format('Line %s: no row of products in this tenant has id %s.', v_line, v_id);
    END IF;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER line_references BEFORE INSERT OR UPDATE OF tenant_id, lines ON expense_reports
  FOR EACH ROW EXECUTE FUNCTION expense_reports_line_references();
CREATE INDEX expense_reports_line_references ON expense_reports USING gin (lines jsonb_path_ops);
CREATE FUNCTION expense_reports_line_referenced() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'products' AND EXISTS (
    SELECT FROM expense_reports r
     WHERE r.tenant_id = OLD.tenant_id AND r.lines @> jsonb_build_array(jsonb_build_object('product_id', OLD.id))) THEN
    RAISE EXCEPTION 'update or delete on table "products" violates line reference lines[].product_id from table "expense_reports"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'expense_reports', CONSTRAINT = 'expense_reports_line_references';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER expense_reports_line_references AFTER DELETE OR UPDATE OF tenant_id, id ON products
  FOR EACH ROW EXECUTE FUNCTION expense_reports_line_referenced();
`,
    down: `
DROP FUNCTION expense_reports_line_referenced() CASCADE;
DROP TRIGGER line_references ON expense_reports;
DROP FUNCTION expense_reports_line_references();
DROP INDEX expense_reports_line_references;
`,
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { up } of tables) await sql.raw(up).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { down } of [...tables].reverse()) await sql.raw(down).execute(db);
}
