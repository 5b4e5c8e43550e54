-- The database's roles (SPEC §3's tenancy, issue 24): run once, by a superuser, on an empty
-- database, before the first migration. compose runs it from the postgres container's first
-- start (init-roles.sh); with a managed server run it yourself:
--   psql -v ON_ERROR_STOP=1 -v owner_password=… -v portal_password=… \
--        -v worker_password=… -v landing_password=… -d erp -f deploy/postgres/roles.sql
--
--   erp_owner    owns the schema and runs the migrations (`migrate`); never used by an app.
--                BYPASSRLS: the SECURITY DEFINER functions it owns (key checks, the event
--                numbering, the history's names) read across tenants as they did when a
--                superuser owned them. It can create no role (erp_app is made here).
--   erp_portal,  the apps' logins: no superuser, no owner of anything, no BYPASSRLS, so every
--   erp_worker,  forced row-level security policy applies to them; rows and sequences of
--   erp_landing  every table, and nothing else (no DDL, no TRUNCATE, no role).
--   erp_app      the role the portal's tenant transactions switch to (`SET ROLE erp_app`),
--                created by migration 0004 when it can, here so the owner needs no CREATEROLE.

-- psql variables reach a DO block through settings of this session only.
SELECT set_config('erp.owner_password', :'owner_password', false),
       set_config('erp.portal_password', :'portal_password', false),
       set_config('erp.worker_password', :'worker_password', false),
       set_config('erp.landing_password', :'landing_password', false);

DO $roles$
DECLARE
  app text;
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'erp_app') THEN
    CREATE ROLE erp_app NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'erp_owner') THEN
    EXECUTE format(
      'CREATE ROLE erp_owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE BYPASSRLS PASSWORD %L',
      current_setting('erp.owner_password'));
  END IF;
  FOREACH app IN ARRAY ARRAY['portal', 'worker', 'landing'] LOOP
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'erp_' || app) THEN
      EXECUTE format(
        'CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS PASSWORD %L',
        'erp_' || app, current_setting(format('erp.%s_password', app)));
    END IF;
  END LOOP;
  -- The migrations' owner owns the database, and with it the public schema (pg_database_owner).
  EXECUTE format('ALTER DATABASE %I OWNER TO erp_owner', current_database());
END
$roles$;

SELECT set_config('erp.owner_password', '', false),
       set_config('erp.portal_password', '', false),
       set_config('erp.worker_password', '', false),
       set_config('erp.landing_password', '', false);

ALTER SCHEMA public OWNER TO erp_owner;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
-- Migration 0004 grants erp_app to the migrating role: it needs the admin option to.
GRANT erp_app TO erp_owner WITH ADMIN OPTION;
GRANT erp_app TO erp_portal;
-- SECURITY DEFINER functions of the migrations set `app.worker` for their own duration (the
-- event numbering, the webhook outbox): a custom setting only a superuser, or a role granted
-- it, may put in a function's SET clause (PostgreSQL 15+).
GRANT SET ON PARAMETER app.worker TO erp_owner;
GRANT USAGE ON SCHEMA public TO erp_portal, erp_worker, erp_landing;

-- What the migrations create from now on (public, landing, graphile_worker): rows and
-- sequences to the apps, nothing more. Functions keep PostgreSQL's EXECUTE to PUBLIC.
ALTER DEFAULT PRIVILEGES FOR ROLE erp_owner
  GRANT USAGE ON SCHEMAS TO erp_portal, erp_worker, erp_landing;
ALTER DEFAULT PRIVILEGES FOR ROLE erp_owner
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO erp_portal, erp_worker, erp_landing;
ALTER DEFAULT PRIVILEGES FOR ROLE erp_owner
  GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO erp_portal, erp_worker, erp_landing;
