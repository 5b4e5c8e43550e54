#!/bin/sh
# The postgres image runs this once, on an empty data directory (/docker-entrypoint-initdb.d),
# as the superuser: the roles of deploy/postgres/roles.sql, with their passwords from the
# container's environment (compose.yaml).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v owner_password="$ERP_OWNER_PASSWORD" \
  -v portal_password="$PORTAL_DATABASE_PASSWORD" \
  -v worker_password="$WORKER_DATABASE_PASSWORD" \
  -v landing_password="$LANDING_DATABASE_PASSWORD" \
  -f /erp/roles.sql
