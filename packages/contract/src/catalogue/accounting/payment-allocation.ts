import { defineResource } from '../../registry/define';
import { date, money, reference } from '../../registry/fields';
import { currency, notes } from '../field-sets';

/** How much of a payment settles which document (ERPNext Payment Entry Reference and Payment Reconciliation, Odoo account.partial.reconcile, BC applied entries). */
export const paymentAllocations = defineResource({
  name: 'payment_allocation',
  path: 'payment-allocations',
  module: 'accounting',
  description:
    "A reconciliation: part or all of a posted payment applied to a posted invoice, supplier invoice, credit note or debit note of the same party and currency, or a credit note applied to an invoice (a debit note to a supplier invoice). It lowers the documents' `amount_due_cents` (their status follows) and raises the payment's `allocated_cents`; never more than either has left (422 `montant_depasse`). A write-off settles the rest and posts it to the write-off account. Deleting it un-reconciles.",
  fields: {
    payment_id: reference('payment', {
      filterable: true,
      description:
        'The payment applied; empty when a credit note settles an invoice (or a debit note a supplier invoice).',
    }),
    invoice_id: reference('invoice', { filterable: true, description: 'The invoice it settles.' }),
    supplier_invoice_id: reference('supplier_invoice', {
      filterable: true,
      description: 'The supplier invoice it settles.',
    }),
    credit_note_id: reference('credit_note', {
      filterable: true,
      description: 'A credit note used instead of money.',
    }),
    debit_note_id: reference('debit_note', {
      filterable: true,
      description: 'A debit note used instead of money.',
    }),
    allocation_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-04-18',
    }),
    amount_cents: money({
      required: true,
      filterable: true,
      sortable: true,
      min: 1,
      description:
        'Amount applied, in minor units of `currency`; at most what the document still owes.',
      example: 178_800,
    }),
    currency: currency(),
    write_off_cents: money({
      min: 0,
      description: 'A small difference written off (bank fees, rounding) to settle the document.',
      example: 150,
    }),
    write_off_account_id: reference('account', {
      description: 'Where the written-off difference is posted.',
    }),
    notes: notes(),
  },
  ledgerRole: 'allocation',
});
