import { DEMO_YEAR, type SeedContext, type SeededRecord, type SeedOverrides } from './context';
import { accountId, endOfMonth, recordsOf, recordWith } from './records';

/**
 * The main bank account's statements and lines, agreeing with the books: a line is a posted
 * payment through that account or a posted entry on the bank (fees, the loan), else a card
 * payment not entered yet; statements add up their month's lines from the balance the opening
 * entry brings in. A reconciled line always names what it is matched with.
 */

/** What the opening entry brings to the bank account on the first day of the demo's year. */
export const OPENING_BANK_CENTS = 2_450_000;

const day = (value: unknown) => String(value);
const cents = (value: unknown) => Number(value ?? 0);

/** The lifecycle of the n-th line: one erroneous import cancelled, a third still to reconcile. */
export function bankLineSteps(n: number): readonly string[] {
  if (n === 4) return ['cancel'];
  return n % 3 === 2 ? [] : ['reconcile'];
}

interface BankLine {
  date: string;
  amount: number;
  payment?: SeededRecord;
  entry?: SeededRecord;
}

/** The main account: the default one. */
export function mainBankAccount(ctx: SeedContext): SeededRecord {
  return recordWith(ctx, 'bank_account', 'is_default', true) ?? ctx.pick('bank_account', 0);
}

/**
 * The lines of the `count` bank transactions the seed makes, by n (undefined for the
 * cancelled import): the account's posted movements in date order, then card payments not
 * entered yet on lines still to reconcile when the movements run out.
 */
export function bankPlan(ctx: SeedContext, count: number): (BankLine | undefined)[] {
  const bank = mainBankAccount(ctx);
  const bankAccount = accountId(ctx, '512000');
  const movements: BankLine[] = [
    ...recordsOf(ctx, 'payment')
      .filter((p) => p.status === 'comptabilise' && p.bank_account_id === bank.id)
      .map((p) => ({
        date: day(p.paid_on),
        amount: p.direction === 'incoming' ? cents(p.amount_cents) : -cents(p.amount_cents),
        payment: p,
      })),
    ...recordsOf(ctx, 'journal_entry')
      .filter((e) => e.status === 'comptabilise' && e.entry_type !== 'opening' && !e.payment_id)
      .flatMap((e) => {
        const lines = (e.lines as Record<string, unknown>[]).filter(
          (l) => l.account_id === bankAccount,
        );
        const amount = lines.reduce((s, l) => s + cents(l.debit_cents) - cents(l.credit_cents), 0);
        return lines.length ? [{ date: day(e.entry_date), amount, entry: e }] : [];
      }),
  ].sort((a, b) => a.date.localeCompare(b.date));
  const positions = Array.from({ length: count }, (_, n) => n).filter(
    (n) => !bankLineSteps(n).includes('cancel'),
  );
  // Card payments fill the last lines still to reconcile, when the movements run out.
  const fillers = positions
    .filter((n) => bankLineSteps(n).length === 0)
    .slice(-Math.max(0, positions.length - movements.length));
  const plan: (BankLine | undefined)[] = Array(count).fill(undefined);
  let next = 0;
  for (const n of positions) {
    const filler = fillers.includes(n) || next >= movements.length;
    plan[n] = filler
      ? { date: `${DEMO_YEAR}-${String(1 + (n % 12)).padStart(2, '0')}-17`, amount: -6_540 }
      : movements[next++];
  }
  return plan;
}

export const accountingBankSeed: SeedOverrides = {
  bank_statement(ctx) {
    // The main account's monthly statements: each adds its month's lines to the last balance.
    const bank = mainBankAccount(ctx);
    const start = `${DEMO_YEAR}-${String((ctx.n % 12) + 1).padStart(2, '0')}-01`;
    const end = endOfMonth(start);
    const lines = bankPlan(ctx, ctx.count).filter((l) => l !== undefined);
    const before = lines.filter((l) => l.date < start).reduce((s, l) => s + l.amount, 0);
    const movement = lines
      .filter((l) => l.date >= start && l.date <= end)
      .reduce((s, l) => s + l.amount, 0);
    const opening = OPENING_BANK_CENTS + before;
    return {
      bank_account_id: bank.id,
      statement_date: end,
      start_date: start,
      end_date: end,
      bank_reference: start.slice(0, 7),
      source: ctx.n % 4 === 3 ? 'ofx' : 'camt053',
      currency: bank.currency ?? 'EUR',
      opening_balance_cents: opening,
      closing_balance_cents: opening + movement,
    };
  },
  bank_transaction(ctx) {
    const bank = mainBankAccount(ctx);
    const line = bankPlan(ctx, ctx.count)[ctx.n];
    const reference = `${String(7_000_000 + ctx.n * 7_919)}`;
    if (!line)
      // An import read twice: cancelled, on no statement.
      return {
        bank_account_id: bank.id,
        bank_statement_id: null,
        transaction_date: `${DEMO_YEAR}-02-02`,
        value_date: `${DEMO_YEAR}-02-02`,
        amount_cents: -6_540,
        currency: bank.currency ?? 'EUR',
        transaction_type: 'card',
        label: 'CB STATION TOTAL LYON (doublon d’import)',
        counterparty_name: null,
        counterparty_iban: null,
        bank_reference: `DUP-${reference}`,
        end_to_end_reference: null,
        payment_id: null,
        journal_entry_id: null,
      };
    const statement = recordsOf(ctx, 'bank_statement').find(
      (s) =>
        s.bank_account_id === bank.id &&
        day(s.start_date) <= line.date &&
        line.date <= day(s.end_date),
    );
    const { payment, entry } = line;
    const incoming = payment?.direction === 'incoming';
    const partner = payment
      ? incoming
        ? recordWith(ctx, 'customer', 'id', payment.customer_id)
        : recordWith(ctx, 'supplier', 'id', payment.supplier_id)
      : undefined;
    const name = String(partner?.name ?? '').toUpperCase();
    return {
      bank_account_id: bank.id,
      bank_statement_id: statement?.id ?? null,
      transaction_date: line.date,
      value_date: line.date,
      amount_cents: line.amount,
      currency: bank.currency ?? 'EUR',
      transaction_type: payment
        ? payment.method === 'direct_debit'
          ? 'direct_debit'
          : 'transfer'
        : entry
          ? entry.description?.toString().startsWith('Frais')
            ? 'fee'
            : 'transfer'
          : 'card',
      label: payment
        ? incoming
          ? `VIR SEPA RECU ${name} ${payment.reference ?? ''}`.trim()
          : `VIR SEPA EMIS ${name}`
        : entry
          ? String(entry.description).toUpperCase()
          : 'CB STATION TOTAL LYON',
      counterparty_name: partner?.name ?? null,
      counterparty_iban: (partner?.iban as string | undefined) ?? null,
      bank_reference: `${line.date.replace(/-/g, '')}-${reference}`,
      end_to_end_reference: payment ? String(payment.number) : null,
      payment_id: payment?.id ?? null,
      journal_entry_id: entry?.id ?? null,
    };
  },
};
