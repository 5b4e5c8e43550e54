import { purchasePosting } from '../../ledger/postings';
import { defineResource } from '../../registry/define';
import { date, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, exchangeRate, notes, pricedLines } from '../field-sets';

/** A supplier's invoice to approve and pay (ERPNext Purchase Invoice, Odoo in_invoice). */
export const supplierInvoices = defineResource({
  name: 'supplier_invoice',
  path: 'supplier-invoices',
  module: 'accounting',
  description: 'A bill received from a supplier: submitted, approved (or rejected), then paid.',
  numbering: { prefix: 'SINV' },
  fields: {
    supplier_id: reference('supplier', { required: true, filterable: true }),
    purchase_order_id: reference('purchase_order', {
      filterable: true,
      description: 'The purchase order billed.',
    }),
    supplier_invoice_number: text({
      filterable: true,
      maxLength: 100,
      description:
        "The number printed on the supplier's invoice; a draft made from a purchase order gets it by a PATCH before it is submitted or approved.",
      example: 'F-2026-0412',
    }),
    invoice_date: date({ required: true, filterable: true, sortable: true }),
    due_date: date({ required: true, filterable: true, sortable: true }),
    currency: currency(),
    exchange_rate: exchangeRate(),
    payment_term_id: reference('payment_term', {
      filterable: true,
      description: 'The payment term the due date follows.',
    }),
    journal_id: reference('journal', {
      filterable: true,
      description: 'The purchases journal it is posted in.',
    }),
    fiscal_position_id: reference('fiscal_position', {
      filterable: true,
      description: 'The tax regime applied (intra-EU acquisition, import).',
    }),
    lines: pricedLines(),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: lifecycles.approvable({
    submit: { description: 'Sent for approval.', requires: ['supplier_invoice_number'] },
    approve: {
      emits: 'approved',
      description: 'Approved for payment.',
      requires: ['supplier_invoice_number'],
    },
    reject: { description: 'Disputed.' },
    cancel: {
      from: ['brouillon', 'en_attente_approbation', 'approuve', 'partiellement_paye'],
      to: 'annule',
      description:
        'Withdrawn; an approved one is reversed in the ledger. Refused while payments are allocated to it (`document_lettre`).',
    },
    settlement: { from: 'approuve', partial: 'partiellement_paye', full: 'paye' },
  }),
  postings: [
    purchasePosting({
      action: 'approve',
      reverse: 'cancel',
      date: 'invoice_date',
      due: 'due_date',
      link: { column: 'supplier_invoice_id' },
    }),
  ],
  events: ['created', 'status_changed', 'approved'],
});
