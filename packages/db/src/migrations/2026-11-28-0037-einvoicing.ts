import { type Kysely, sql } from 'kysely';

/**
 * Electronic invoices (SPEC §20).
 *
 * - `company_settings`: Settings → Company, the seller of every invoice (one row a tenant;
 *   none until saved). The identifiers' formats are checked here too (SIREN nine digits,
 *   SIRET fourteen starting with it, an ISO country code); their keys (Luhn, IBAN's mod 97,
 *   the French VAT key) by the API's schema.
 * - `einvoice_files`: the e-invoices imported, byte for byte, with their digest, and the draft
 *   each became (a supplier invoice, or for a supplier's credit note a debit note); one per
 *   supplier and number (`UNIQUE (tenant_id, supplier_id, invoice_number)`), so that two
 *   imports of the same invoice, even at once, cannot both pass. A row whose document
 *   was cancelled or deleted is taken over by the next import of that number (the import's
 *   `ON CONFLICT … DO UPDATE … WHERE`); files are never deleted by the application. No foreign
 *   key into the catalogue's tables (the generated migrations drop and create them); the
 *   engine writes only the document it created in the same transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE company_settings (
      tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      legal_name text,
      trade_name text,
      legal_form text,
      share_capital_cents bigint CHECK (share_capital_cents >= 0),
      registry text,
      siren text CHECK (siren ~ '^[0-9]{9}$'),
      siret text CHECK (siret ~ '^[0-9]{14}$'),
      vat_number text,
      street text,
      street2 text,
      postal_code text,
      city text,
      country_code text CHECK (country_code ~ '^[A-Z]{2}$'),
      iban text,
      bic text,
      email text,
      phone text,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (siret IS NULL OR siren IS NULL OR left(siret, 9) = siren)
    );

    CREATE TABLE einvoice_files (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT erp_uuidv7(),
      document_type text NOT NULL CHECK (document_type IN ('supplier_invoice', 'debit_note')),
      document_id uuid NOT NULL,
      supplier_id uuid NOT NULL,
      invoice_number text NOT NULL,
      syntax text NOT NULL CHECK (syntax IN ('ubl', 'cii', 'facturx')),
      media_type text NOT NULL,
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      content bytea NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, supplier_id, invoice_number),
      UNIQUE (tenant_id, document_type, document_id)
    );
  `.execute(db);
  for (const table of ['company_settings', 'einvoice_files']) {
    await sql
      .raw(`
      ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
      ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;
      CREATE POLICY tenant_isolation ON ${table}
        USING (tenant_id = erp_tenant_id()) WITH CHECK (tenant_id = erp_tenant_id());
    `)
      .execute(db);
  }
  await sql`
    GRANT SELECT, INSERT, UPDATE ON company_settings, einvoice_files TO erp_app;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE einvoice_files, company_settings;`.execute(db);
}
