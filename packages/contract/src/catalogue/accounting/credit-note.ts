import { mirrorPosting, salesPosting } from '../../ledger/postings';
import { defineResource } from '../../registry/define';
import { date, enumOf, reference } from '../../registry/fields';
import { currency, exchangeRate, notes, pricedLines } from '../field-sets';

/** A credit note against an invoice (ERPNext return Sales Invoice, Odoo out_refund). */
export const creditNotes = defineResource({
  name: 'credit_note',
  path: 'credit-notes',
  module: 'accounting',
  description: 'A credit note: reduces what a customer owes on an invoice.',
  numbering: { prefix: 'CN' },
  fields: {
    invoice_id: reference('invoice', { required: true, filterable: true }),
    customer_id: reference('customer', { required: true, filterable: true }),
    credit_note_date: date({ required: true, filterable: true, sortable: true }),
    reason: enumOf(['return', 'damaged_goods', 'pricing_error', 'commercial_gesture', 'other'], {
      required: true,
      filterable: true,
      example: 'return',
    }),
    currency: currency(),
    exchange_rate: exchangeRate(),
    journal_id: reference('journal', {
      filterable: true,
      description: 'The sales journal it is posted in.',
    }),
    lines: pricedLines(),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      issue: {
        from: ['brouillon'],
        to: 'emis',
        description: 'Sent to the customer: posts the mirror of an invoice.',
      },
      cancel: {
        from: ['brouillon', 'emis', 'partiellement_paye'],
        to: 'annule',
        description: 'Void; an issued credit note is reversed in the ledger.',
      },
    },
    settlement: { from: 'emis', partial: 'partiellement_paye', full: 'impute' },
  },
  postings: [
    mirrorPosting(
      salesPosting({
        action: 'issue',
        reverse: 'cancel',
        date: 'credit_note_date',
        link: { source_type: 'credit_note' },
      }),
      {},
    ),
  ],
  events: ['created', 'status_changed'],
});
