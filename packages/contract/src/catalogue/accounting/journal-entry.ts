import { defineResource } from '../../registry/define';
import { date, enumOf, money, reference, text, uuid } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, ledgerLines, notes } from '../field-sets';

/** A balanced ledger entry (ERPNext Journal Entry, Odoo account.move of type entry, BC general journal line). */
export const journalEntries = defineResource({
  name: 'journal_entry',
  path: 'journal-entries',
  module: 'accounting',
  description:
    'An entry of the general ledger in a journal: debit and credit lines that balance, posted once checked and reversed by cancelling.',
  numbering: { prefix: 'JE' },
  fields: {
    journal_id: reference('journal', { required: true, filterable: true }),
    entry_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-31' }),
    accounting_period_id: reference('accounting_period', {
      filterable: true,
      description: 'The period it is posted in; contains entry_date.',
    }),
    entry_type: enumOf(['standard', 'opening', 'closing', 'accrual', 'depreciation', 'reversal'], {
      required: true,
      filterable: true,
      description:
        'opening: balances brought forward (« à-nouveaux »); reversal: undoes another entry.',
      example: 'standard',
    }),
    reference: text({
      maxLength: 140,
      filterable: true,
      description: 'Number of the source document (invoice, bank statement, payroll run…).',
      example: 'INV-2026-00042',
    }),
    description: text({ maxLength: 500, example: 'Provision pour congés payés — mars 2026' }),
    currency: currency(),
    invoice_id: reference('invoice', {
      filterable: true,
      description: 'The customer invoice it records.',
    }),
    supplier_invoice_id: reference('supplier_invoice', {
      filterable: true,
      description: 'The supplier invoice it records.',
    }),
    payment_id: reference('payment', { filterable: true, description: 'The payment it records.' }),
    reversed_entry_id: reference('journal_entry', {
      filterable: true,
      description: 'The entry this one reverses.',
    }),
    source_type: enumOf(
      [
        'credit_note',
        'debit_note',
        'payment_allocation',
        'goods_receipt',
        'delivery',
        'stock_move',
        'stock_adjustment',
        'stock_transfer',
        'sales_return',
        'purchase_return',
      ],
      {
        filterable: true,
        description:
          'The kind of document it records when it has no column of its own (with `source_id`).',
        example: 'credit_note',
      },
    ),
    source_id: uuid({ filterable: true, description: 'The document of `source_type` it records.' }),
    lines: ledgerLines({
      tax_id: reference('tax', { description: 'The tax a tax line or a taxed base is for.' }),
      due_date: date({ description: 'Receivable and payable lines: when the amount falls due.' }),
      currency: text({
        maxLength: 3,
        description: 'The currency of the document the line records (ISO 4217).',
        example: 'USD',
      }),
      amount_currency_cents: money({
        description:
          'The line in that currency, signed (debit positive); the debit and credit are in company currency.',
        example: 100000,
      }),
    }),
    notes: notes(),
  },
  lifecycle: lifecycles.postable(),
  ledgerRole: 'entry',
});
