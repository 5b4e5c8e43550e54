import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { postJson } from '../lib/api-key-setup';

/** A tenant provisioned for the run, with its first admin's credentials. */
export interface BenchTenant {
  id: string;
  slug: string;
  adminEmail: string;
  adminPassword: string;
}

/**
 * Provisions `count` tenants on the `business` plan (sales included) through the portal's
 * internal route, as the SaaS back office does: `bench-01`, `bench-02`, …
 */
export async function provisionTenants(
  baseUrl: string,
  internalApiKey: string,
  count: number,
): Promise<BenchTenant[]> {
  const tenants: BenchTenant[] = [];
  for (let i = 1; i <= count; i++) {
    const slug = `bench-${String(i).padStart(2, '0')}`;
    const adminEmail = `admin@${slug}.test`;
    const adminPassword = randomBytes(12).toString('hex');
    const created = await postJson<{ tenant: { id: string } }>(
      `${baseUrl}/api/v1/internal/tenants`,
      {
        slug,
        name: `Bench ${i}`,
        plan_code: 'business',
        admin: { email: adminEmail, name: `Admin ${slug}`, password: adminPassword },
      },
      { 'x-api-key': internalApiKey },
    );
    tenants.push({ id: created.tenant.id, slug, adminEmail, adminPassword });
  }
  return tenants;
}

// Customers of each tenant; sales orders reference them by (tenant_id, customer_id).
const CUSTOMERS = `
  INSERT INTO customers (tenant_id, name, customer_type, email, city, country_code, currency,
                         payment_terms_days, active)
  SELECT t.id, format('Client %s', c), CASE WHEN c % 5 = 0 THEN 'individual' ELSE 'company' END,
         format('achats%s@client%s.example', c, c), (ARRAY['Paris','Lyon','Lille','Nantes','Bordeaux'])[1 + c % 5],
         'FR', 'EUR', 30, true
    FROM unnest($1::uuid[]) AS t (id) CROSS JOIN generate_series(1, $2::int) AS c`;

/*
 * $2 orders per tenant, interleaved across tenants in creation order (ids are UUIDv7 by
 * default: time-ordered, as the API makes them), numbered SO-<year>-00001… per tenant (more
 * digits past 99 999: the export bench loads a million in one tenant).
 * h is a hash of (n, tenant): statuses 25 % brouillon, 20 % confirme, 20 % livre,
 * 25 % facture, 10 % annule; 1 to 3 lines; totals computed as the portal computes them
 * (per line, rounded half away from zero); order dates spread over two years.
 */
const SALES_ORDERS = `
  WITH tenant AS (
    SELECT t.id, t.ord, array_agg(c.id ORDER BY c.id) AS customers
      FROM unnest($1::uuid[]) WITH ORDINALITY AS t (id, ord)
      JOIN customers c ON c.tenant_id = t.id
     GROUP BY t.id, t.ord
  ), o AS (
    SELECT tenant.id AS tenant_id, tenant.customers, n,
           abs(hashint4(n * 64 + tenant.ord::int)::bigint) AS h
      FROM generate_series(1, $2::int) AS n CROSS JOIN tenant
     ORDER BY n, tenant.ord
  )
  INSERT INTO sales_orders (tenant_id, number, status, customer_id, order_date, delivery_date,
    customer_reference, currency, payment_terms_days, shipping_street, shipping_postal_code,
    shipping_city, shipping_country_code, lines, notes, subtotal_cents, tax_cents, total_cents,
    created_at, updated_at)
  SELECT o.tenant_id,
         format('SO-%s-%s', extract(year FROM now())::int, lpad(o.n::text, greatest(5, length(o.n::text)), '0')),
         CASE WHEN o.h % 100 < 25 THEN 'brouillon' WHEN o.h % 100 < 45 THEN 'confirme'
              WHEN o.h % 100 < 65 THEN 'livre' WHEN o.h % 100 < 90 THEN 'facture' ELSE 'annule' END,
         o.customers[1 + (o.h / 300) % cardinality(o.customers)],
         d.day, d.day + 14,
         CASE WHEN o.h % 3 = 0 THEN format('PO-%s', 10000 + o.h % 90000) END,
         'EUR', 30,
         format('%s rue de la Paix', 1 + o.h % 120), lpad((1000 + o.h % 95000)::text, 5, '0'),
         (ARRAY['Paris','Lyon','Lille','Nantes','Bordeaux'])[1 + (o.h / 7) % 5], 'FR',
         l.lines, CASE WHEN o.h % 7 = 0 THEN 'Livrer le matin, quai 2.' END,
         l.subtotal, l.tax, l.subtotal + l.tax,
         d.day + time '09:00', d.day + time '09:00'
    FROM o
    CROSS JOIN LATERAL (SELECT date '2025-01-01' + (o.n * 700 / $2::int) AS day) d
    CROSS JOIN LATERAL (
      SELECT jsonb_agg(jsonb_build_object(
               'description', format('Article %s', x.item), 'quantity', x.qty::text,
               'unit_of_measure', 'Unit', 'unit_price_cents', x.price, 'tax_rate', '20')
             ORDER BY x.i) AS lines,
             sum(x.qty * x.price)::bigint AS subtotal,
             sum(round(x.qty * x.price * 20 / 100.0))::bigint AS tax
        FROM (SELECT i, 1 + (o.h / 7 + i * 13) % 500 AS item, 1 + (o.h / 11 + i) % 10 AS qty,
                     500 + (o.h / 13 + i * 977) % 50000 AS price
                FROM generate_series(1, 1 + (o.h / 100) % 3) AS i) x
    ) l`;

// The API's next number continues after the loaded ones.
const SEQUENCES = `
  INSERT INTO document_sequences (tenant_id, prefix, year, last_value)
  SELECT t.id, 'SO', extract(year FROM now())::int, $2::int FROM unnest($1::uuid[]) AS t (id)
  ON CONFLICT (tenant_id, prefix, year) DO UPDATE SET last_value = excluded.last_value`;

/** What was loaded, for the report. */
export interface LoadedData {
  salesOrders: number;
  customers: number;
  byStatus: Record<string, number>;
  seconds: number;
}

/**
 * Loads `perTenant` sales orders per tenant in one statement (as the superuser, which
 * row-level security does not apply to), then VACUUM ANALYZE and a CHECKPOINT, so the
 * measurement starts with fresh statistics, set hint bits and no pending checkpoint.
 */
export async function loadSalesOrders(
  databaseUrl: string,
  tenantIds: string[],
  perTenant: number,
  customersPerTenant = 20,
): Promise<LoadedData> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    const customers = await client.query(CUSTOMERS, [tenantIds, customersPerTenant]);
    const orders = await client.query(SALES_ORDERS, [tenantIds, perTenant]);
    await client.query(SEQUENCES, [tenantIds, perTenant]);
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE customers, sales_orders');
    await client.query('CHECKPOINT');
    const { rows } = await client.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM sales_orders WHERE tenant_id = ANY($1::uuid[]) GROUP BY status ORDER BY status',
      [tenantIds],
    );
    return {
      salesOrders: orders.rowCount ?? 0,
      customers: customers.rowCount ?? 0,
      byStatus: Object.fromEntries(rows.map((r) => [r.status, r.n])),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await client.end();
  }
}
