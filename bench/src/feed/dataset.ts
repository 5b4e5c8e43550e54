import pg from 'pg';
import { treeCpuMs } from '../lib/cpu';

/** Event types the loaded events cycle through (real feed types of the catalogue). */
const TYPES = [
  'sales_order.created',
  'sales_order.updated',
  'sales_order.status_changed',
  'customer.updated',
];

/**
 * Loads `count` events into a tenant's outbox as the portal's writes leave them (sequence
 * NULL), each carrying a record of ~25 fields like a sales order's, then numbers them with
 * `assign_event_sequences()` and says how fast that went.
 */
export async function loadEvents(
  databaseUrl: string,
  tenantId: string,
  count: number,
  postmasterPid: number,
) {
  const client = new pg.Client({ connectionString: databaseUrl, options: '-c app.worker=on' });
  await client.connect();
  try {
    const started = Date.now();
    const cpuBefore = treeCpuMs(postmasterPid);
    for (let done = 0; done < count; done += 20_000) {
      await client.query(
        `INSERT INTO events (tenant_id, type, resource, resource_id, data)
         SELECT $1::uuid, ($4::text[])[1 + i % cardinality($4::text[])], 'sales_order', gen_random_uuid(),
           jsonb_build_object('object', jsonb_build_object(
             'id', gen_random_uuid(), 'number', 'SO-2026-' || lpad(i::text, 5, '0'), 'status', 'confirme',
             'subtotal_cents', 100000 + i, 'tax_cents', 20000, 'total_cents', 120000 + i,
             'created_at', now(), 'updated_at', now(), 'customer_id', gen_random_uuid(),
             'order_date', '2026-03-02', 'delivery_date', '2026-03-16', 'currency', 'EUR',
             'payment_terms_days', 30, 'salesperson_id', NULL, 'notes', 'Livraison au quai 3, le matin.',
             'lines', jsonb_build_array(
               jsonb_build_object('product_id', gen_random_uuid(), 'description', 'Chaise de bureau ergonomique', 'quantity', '4', 'unit_price_cents', 18900, 'tax_rate', '20'),
               jsonb_build_object('product_id', gen_random_uuid(), 'description', 'Bureau assis-debout 160 cm', 'quantity', '2', 'unit_price_cents', 54900, 'tax_rate', '20')))
           , 'previous_status', 'brouillon', 'action', 'confirm')
         FROM generate_series($2::int, $3::int) AS i`,
        [tenantId, done + 1, Math.min(done + 20_000, count), TYPES],
      );
    }
    const loadedSeconds = (Date.now() - started) / 1000;
    const loadCpuMs = treeCpuMs(postmasterPid) - cpuBefore;
    const numbering = Date.now();
    const cpuNumbering = treeCpuMs(postmasterPid);
    for (;;) {
      await client.query('SELECT assign_event_sequences()');
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM events WHERE sequence IS NULL AND type <> 'webhook.test'",
      );
      if (rows[0].n === 0) break;
    }
    const numberedSeconds = (Date.now() - numbering) / 1000;
    const numberCpuMs = treeCpuMs(postmasterPid) - cpuNumbering;
    const { rows } = await client.query(
      'SELECT count(*)::int AS n, max(sequence)::int AS last, avg(length(data::text))::int AS bytes FROM events WHERE tenant_id = $1',
      [tenantId],
    );
    await client.query('VACUUM ANALYZE events');
    return {
      events: rows[0].n as number,
      last: rows[0].last as number,
      avgDataBytes: rows[0].bytes as number,
      loadedSeconds,
      numberedSeconds,
      /** PostgreSQL CPU per event: inserting it (in bulk, as 20 000-row statements), numbering it. */
      insertCpuUs: (loadCpuMs * 1000) / count,
      // Numbering covered the seed's events too.
      numberCpuUs: (numberCpuMs * 1000) / (rows[0].n as number),
    };
  } finally {
    await client.end();
  }
}
