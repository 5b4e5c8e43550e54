import { MODULES, type Resource } from '@erp/contract';
import { sampleBody } from '../seed';
import type { createTestPortal } from './harness';

type Portal = Awaited<ReturnType<typeof createTestPortal>>;
type Answer = Awaited<ReturnType<Portal['json']>>;

/**
 * Creates `count` records of every resource through the API, referencing earlier ones and,
 * where a field names a user, one of `users` (members of the tenant).
 */
export async function populate(
  portal: Portal,
  resources: readonly Resource[],
  headers: Record<string, string>,
  count = 2,
  users: string[] = [],
) {
  const refs = new Map<string, string[]>([['user', users]]);
  for (const resource of resources) {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const res = await createSample(portal, resource, n, refs, headers);
      if (res.status !== 201)
        throw new Error(`create ${resource.name}: ${res.status} ${JSON.stringify(res.body)}`);
      ids.push(res.body.id);
    }
    refs.set(resource.name, ids);
  }
  return refs;
}

/**
 * Creates the n-th sample record of `resource` (`POST` of its sample body), except where the
 * books say a record only follows from others (SPEC §17): an allocation needs a posted payment
 * and a posted document of the same party and currency, which no sample body can name, so it
 * is made by the flow an accountant follows (`allocateByFlow`).
 */
export function createSample(
  portal: Portal,
  resource: Resource,
  n: number,
  refs: ReadonlyMap<string, readonly string[]>,
  headers: Record<string, string>,
): Promise<Answer> {
  if (resource.ledgerRole === 'allocation') return allocateByFlow(portal, n, headers);
  return portal
    .post(`/api/v1/${resource.path}`, sampleBody(resource, n, refs), headers)
    .then(portal.json);
}

/**
 * An allocation as the books make it: a customer, an invoice of theirs issued (it posts), a
 * payment of theirs posted, then part of the payment applied to the invoice. It posts through
 * the journals provisioning installed (sample journals may point at sample accounts that take
 * no posting) and to the accounts of Settings → Accounting; the documents are dated today,
 * inside the open fiscal year. Returns the allocation's answer (201 and the record).
 */
export async function allocateByFlow(
  portal: Portal,
  n: number,
  headers: Record<string, string>,
): Promise<Answer> {
  const call = async (path: string, body: unknown = {}) => {
    const res = await portal.post(`/api/v1/${path}`, body, headers).then(portal.json);
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`allocation flow: POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown> & { id: string };
  };
  const installed = async (code: string) => {
    const res = await portal
      .request(`/api/v1/journals?code=eq.${code}&page_size=200`, { headers })
      .then(portal.json);
    const rows = res.body.data as { id: string; created_at: string }[];
    // Provisioning made the tenant's first journals: a sample may have taken the same code later.
    const first = rows.sort((a, b) => a.created_at.localeCompare(b.created_at))[0];
    if (!first) throw new Error(`allocation flow: no ${code} journal (were the books installed?)`);
    return first.id;
  };
  const today = new Date().toISOString().slice(0, 10);
  const cents = 10_000 + 100 * n;
  const customer = await call('customers', {
    name: `Allocation client ${n + 1}`,
    customer_type: 'company',
    active: true,
  });
  const invoice = await call('invoices', {
    customer_id: customer.id,
    invoice_date: today,
    due_date: today,
    currency: 'EUR',
    journal_id: await installed('VTE'),
    lines: [{ description: 'Article', quantity: '1', unit_price_cents: cents, tax_rate: '0' }],
  });
  await call(`invoices/${invoice.id}/issue`);
  const payment = await call('payments', {
    direction: 'incoming',
    amount_cents: cents,
    currency: 'EUR',
    method: 'bank_transfer',
    paid_on: today,
    customer_id: customer.id,
    journal_id: await installed('BQ'),
  });
  await call(`payments/${payment.id}/post`);
  return portal
    .post(
      '/api/v1/payment-allocations',
      {
        payment_id: payment.id,
        invoice_id: invoice.id,
        amount_cents: cents / 2,
        allocation_date: today,
        currency: 'EUR',
        notes: `Allocation ${n + 1}`,
      },
      headers,
    )
    .then(portal.json);
}

/** Every right of every module: a key or user that can do anything the tenant bought. */
export const ALL_MODULE_SCOPES = MODULES.flatMap((m) => [`${m}:read`, `${m}:write`]);
