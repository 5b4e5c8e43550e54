import { ApiError, centsNumber, convertCents, type Resource } from '@erp/contract';
import type pg from 'pg';
import type { ActorRef } from '../../http/context';
import type { EntryLine } from './entry-lines';
import { createPostedEntry, reverseEntries } from './posting';

/**
 * What an allocation posts (SPEC §17): its write-off, to the `write_off` account against the
 * party's receivable (payable); and, between a foreign-currency document and the payment that
 * settles it at another rate, the realised difference to `exchange_gain` or `exchange_loss`.
 * Deleting the allocation reverses both. Nothing is posted for an allocation of neither kind.
 */
export async function postAllocation(
  client: pg.PoolClient,
  tenantId: string,
  allocationId: string,
  actor: ActorRef,
): Promise<void> {
  const { rows } = await client.query(
    `SELECT a.id, a.allocation_date::text AS day, a.amount_cents, coalesce(a.write_off_cents, 0) AS write_off_cents,
            a.write_off_account_id, a.currency,
            coalesce(i.customer_id, si.supplier_id) AS party, (i.id IS NOT NULL) AS customer_side,
            coalesce(i.exchange_rate, si.exchange_rate)::text AS document_rate,
            p.exchange_rate::text AS payment_rate, coalesce(i.number, si.number) AS number,
            s.company_currency, s.write_off_account_id AS default_write_off,
            s.exchange_gain_account_id, s.exchange_loss_account_id,
            coalesce(c.receivable_account_id, s.receivable_account_id) AS receivable,
            coalesce(sp.payable_account_id, s.payable_account_id) AS payable,
            (SELECT id FROM journals WHERE tenant_id = a.tenant_id AND journal_type = 'miscellaneous' AND status = 'actif' ORDER BY code LIMIT 1) AS journal_id
       FROM payment_allocations a
       LEFT JOIN invoices i ON i.tenant_id = a.tenant_id AND i.id = a.invoice_id
       LEFT JOIN supplier_invoices si ON si.tenant_id = a.tenant_id AND si.id = a.supplier_invoice_id
       LEFT JOIN payments p ON p.tenant_id = a.tenant_id AND p.id = a.payment_id
       LEFT JOIN customers c ON c.tenant_id = a.tenant_id AND c.id = i.customer_id
       LEFT JOIN suppliers sp ON sp.tenant_id = a.tenant_id AND sp.id = si.supplier_id
       LEFT JOIN accounting_settings s ON s.tenant_id = a.tenant_id
      WHERE a.tenant_id = $1 AND a.id = $2`,
    [tenantId, allocationId],
  );
  const a = rows[0];
  if (!a?.party) return;
  const partyAccount: string | null = a.customer_side ? a.receivable : a.payable;
  const partyKey = a.customer_side ? 'customer_id' : 'supplier_id';
  // The party's side is its receivable (a debit balance) or payable (a credit balance).
  const partySign = a.customer_side ? 1n : -1n;
  const lines: EntryLine[] = [];
  const leg = (account: string | null, setting: string, cents: bigint, label: string) => {
    if (!account)
      throw new ApiError('compte_invalide', `Settings → Accounting names no ${setting} account.`, {
        setting,
        reason: 'unset',
      });
    if (cents === 0n) return;
    lines.push({
      account_id: account,
      label: `${a.number ?? ''} ${label}`.trim(),
      debit_cents: cents > 0n ? centsNumber(cents) : 0,
      credit_cents: cents < 0n ? centsNumber(-cents) : 0,
      ...(account === partyAccount ? { [partyKey]: a.party } : {}),
    });
  };
  const foreign = a.currency !== a.company_currency;
  const rate = foreign ? (a.document_rate ?? a.payment_rate ?? '1') : '1';
  const writeOff = BigInt(a.write_off_cents);
  if (writeOff > 0n) {
    const cents = convertCents(writeOff, rate);
    // Settles the rest of the party's balance against the write-off account.
    leg(a.write_off_account_id ?? a.default_write_off, 'write_off', partySign * cents, 'write-off');
    leg(partyAccount, a.customer_side ? 'receivable' : 'payable', -partySign * cents, 'write-off');
  }
  if (foreign && a.document_rate && a.payment_rate && a.document_rate !== a.payment_rate) {
    const amount = BigInt(a.amount_cents);
    // What the party's account holds for this amount: the document's rate in, the payment's out.
    const residual =
      partySign * (convertCents(amount, a.document_rate) - convertCents(amount, a.payment_rate));
    if (residual !== 0n) {
      // Clear the residual on the party's account; the other side is the gain or the loss.
      leg(
        partyAccount,
        a.customer_side ? 'receivable' : 'payable',
        -residual,
        'exchange difference',
      );
      // The other side is +residual: a debit is a loss, a credit a gain.
      const gain = residual < 0n;
      leg(
        gain ? a.exchange_gain_account_id : a.exchange_loss_account_id,
        gain ? 'exchange_gain' : 'exchange_loss',
        residual,
        'exchange difference',
      );
    }
  }
  if (lines.length === 0) return;
  if (!a.journal_id)
    throw new ApiError('compte_invalide', 'No active miscellaneous journal to post in.', {
      setting: 'journal.miscellaneous',
      reason: 'unset',
    });
  await createPostedEntry(
    client,
    tenantId,
    {
      journal_id: a.journal_id,
      entry_date: a.day,
      entry_type: 'standard',
      reference: a.number ?? null,
      description: `Allocation ${a.number ?? ''}`.trim(),
      currency: a.company_currency,
      source_type: 'payment_allocation',
      source_id: a.id,
      lines,
    },
    actor,
  );
}

/** Deleting an allocation reverses what it posted (before the row goes). */
export async function reverseAllocation(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  allocationId: string,
  actor: ActorRef,
): Promise<void> {
  if (resource.ledgerRole !== 'allocation') return;
  await reverseEntries(
    client,
    tenantId,
    { source_type: 'payment_allocation', source_id: allocationId },
    actor,
  );
}
