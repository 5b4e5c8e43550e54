import { defineResource } from '../../registry/define';
import { date, enumOf, money, reference, text } from '../../registry/fields';
import { currency } from '../field-sets';

/** A line of a bank statement or feed, to reconcile (ERPNext Bank Transaction, Odoo account.bank.statement.line, BC bank account reconciliation line). */
export const bankTransactions = defineResource({
  name: 'bank_transaction',
  path: 'bank-transactions',
  module: 'accounting',
  description:
    'Money in or out of a bank account as the bank reports it; imported, then reconciled with a payment or a ledger entry.',
  fields: {
    bank_account_id: reference('bank_account', { required: true, filterable: true }),
    bank_statement_id: reference('bank_statement', {
      filterable: true,
      description: 'The statement it came in on; empty for a bank-feed transaction.',
    }),
    transaction_date: date({
      required: true,
      filterable: true,
      sortable: true,
      description: 'Booking date at the bank.',
      example: '2026-03-18',
    }),
    value_date: date({ filterable: true, description: 'Date the amount bears interest from.' }),
    amount_cents: money({
      required: true,
      filterable: true,
      sortable: true,
      description: 'Signed, in minor units: positive for money in, negative for money out.',
      example: 178_800,
    }),
    currency: currency(),
    transaction_type: enumOf(
      ['transfer', 'card', 'direct_debit', 'cheque', 'cash', 'fee', 'interest', 'other'],
      { required: true, filterable: true, example: 'transfer' },
    ),
    label: text({
      required: true,
      maxLength: 500,
      description: 'The wording the bank gives.',
      example: 'VIR SEPA MARTIN ET FILS INV-2026-00042',
    }),
    counterparty_name: text({ maxLength: 140, filterable: true, fake: 'company' }),
    counterparty_iban: text({ maxLength: 34, fake: 'iban' }),
    bank_reference: text({
      maxLength: 100,
      filterable: true,
      description: "The bank's unique id of the transaction (imports skip ones already there).",
      example: '20260318-0001927',
    }),
    end_to_end_reference: text({
      maxLength: 35,
      filterable: true,
      description: 'SEPA EndToEndId the payer gave.',
    }),
    payment_id: reference('payment', {
      filterable: true,
      description: 'The payment it is reconciled with.',
    }),
    journal_entry_id: reference('journal_entry', {
      filterable: true,
      description: 'The ledger entry it is reconciled with (bank fees, interest…).',
    }),
  },
  lifecycle: {
    initial: 'nouveau',
    actions: {
      reconcile: {
        from: ['nouveau'],
        to: 'rapproche',
        description: 'Matched with a payment or a ledger entry.',
      },
      unreconcile: {
        from: ['rapproche'],
        to: 'nouveau',
        description: 'The match was wrong; to reconcile again.',
      },
      cancel: {
        from: ['nouveau'],
        to: 'annule',
        description: 'Not to be reconciled: a duplicate or erroneous import.',
      },
    },
  },
});
