import { paymentPostings } from '../../ledger/postings';
import { defineResource } from '../../registry/define';
import { date, enumOf, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, exchangeRate, notes } from '../field-sets';

/** Money received or paid (ERPNext Payment Entry, Odoo account.payment). */
export const payments = defineResource({
  name: 'payment',
  path: 'payments',
  module: 'accounting',
  description:
    'A payment received from a customer or made to a supplier, or a refund (to a customer, of a credit note; from a supplier, of a debit note). It names one party. Posting it debits the bank and credits the receivable (incoming from a customer), debits the payable and credits the bank (outgoing to a supplier), and the reverse for refunds; allocations apply it to the documents it settles.',
  numbering: { prefix: 'PAY' },
  fields: {
    direction: enumOf(['incoming', 'outgoing'], {
      required: true,
      filterable: true,
      description:
        'incoming: money received (from a customer, or a refund from a supplier); outgoing: money paid (to a supplier, or a refund to a customer).',
      example: 'incoming',
    }),
    amount_cents: money({
      required: true,
      filterable: true,
      sortable: true,
      min: 1,
      description: 'Amount in minor units of `currency`.',
      example: 178800,
    }),
    currency: currency(),
    exchange_rate: exchangeRate(),
    method: enumOf(['bank_transfer', 'card', 'direct_debit', 'cheque', 'cash', 'other'], {
      required: true,
      filterable: true,
      example: 'bank_transfer',
    }),
    paid_on: date({ required: true, filterable: true, sortable: true, example: '2026-04-18' }),
    reference: text({
      maxLength: 140,
      filterable: true,
      description: 'Bank or card reference of the transaction.',
      example: 'VIR-2026-04-18-7781',
    }),
    customer_id: reference('customer', { filterable: true }),
    supplier_id: reference('supplier', { filterable: true }),
    invoice_id: reference('invoice', { filterable: true, description: 'The invoice it settles.' }),
    supplier_invoice_id: reference('supplier_invoice', {
      filterable: true,
      description: 'The supplier invoice it settles.',
    }),
    bank_account_id: reference('bank_account', {
      filterable: true,
      description: 'The bank account the money went through.',
    }),
    journal_id: reference('journal', {
      filterable: true,
      description: 'The bank or cash journal it is recorded in.',
    }),
    notes: notes(),
  },
  ledgerRole: 'payment',
  lifecycle: lifecycles.postable(),
  postings: paymentPostings(),
  events: ['created'],
});
