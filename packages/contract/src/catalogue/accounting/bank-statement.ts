import { defineResource } from '../../registry/define';
import { date, enumOf, money, reference, text } from '../../registry/fields';
import { currency, notes, period } from '../field-sets';

/** A statement from the bank for a period (Odoo account.bank.statement, ERPNext Bank Statement Import, BC bank account statement). */
export const bankStatements = defineResource({
  name: 'bank_statement',
  path: 'bank-statements',
  module: 'accounting',
  description:
    'A bank statement: opening balance, the transactions of the period and the closing balance; checked, then reconciled.',
  numbering: { prefix: 'BST' },
  fields: {
    bank_account_id: reference('bank_account', { required: true, filterable: true }),
    statement_date: date({
      required: true,
      filterable: true,
      sortable: true,
      description: 'Date the bank issued it (the last day of the period).',
      example: '2026-03-31',
    }),
    ...period(),
    bank_reference: text({
      maxLength: 100,
      filterable: true,
      description: "The bank's number of the statement.",
      example: '2026-03',
    }),
    source: enumOf(['camt053', 'ofx', 'csv', 'bank_feed', 'manual'], {
      required: true,
      filterable: true,
      description:
        'How it came in: an ISO 20022 camt.053 or OFX file, a CSV, a bank feed or typed.',
      example: 'camt053',
    }),
    currency: currency(),
    opening_balance_cents: money({
      required: true,
      description: 'Balance at the start of the period (negative when overdrawn).',
      example: 2_450_000,
    }),
    closing_balance_cents: money({
      required: true,
      description: 'Balance at the end: the opening balance plus its transactions.',
      example: 2_618_800,
    }),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      validate: {
        from: ['brouillon'],
        to: 'valide',
        description: 'Balances checked: opening balance plus transactions equals closing balance.',
      },
      reconcile: {
        from: ['valide'],
        to: 'rapproche',
        description: 'Every transaction is matched with a payment or a ledger entry.',
      },
      reopen: {
        from: ['valide', 'rapproche'],
        to: 'brouillon',
        description: 'Back to draft to correct the import.',
      },
      cancel: { from: ['brouillon'], to: 'annule', description: 'A wrong or duplicate import.' },
    },
  },
});
