import { defineResource } from '../registry/define';
import { date, enumOf, money, reference, text } from '../registry/fields';
import { currency, notes, paymentTermsDays, pricedLines } from './field-sets';

/** A customer invoice (ERPNext Sales Invoice, Odoo account.move of type out_invoice). */
export const invoices = defineResource({
  name: 'invoice',
  path: 'invoices',
  module: 'accounting',
  description: 'A customer invoice: issued, then paid.',
  numbering: { prefix: 'INV' },
  fields: {
    customer_id: reference('customer', { required: true, filterable: true }),
    sales_order_id: reference('sales_order', {
      filterable: true,
      description: 'The order invoiced.',
    }),
    invoice_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-21' }),
    due_date: date({ required: true, filterable: true, sortable: true, example: '2026-04-20' }),
    customer_reference: text({
      maxLength: 100,
      filterable: true,
      description: "The customer's purchase order number, repeated on the invoice.",
    }),
    payment_reference: text({
      maxLength: 100,
      filterable: true,
      description: 'Reference the customer should quote with the payment.',
    }),
    currency: currency(),
    payment_terms_days: paymentTermsDays(),
    lines: pricedLines(),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      issue: {
        from: ['brouillon'],
        to: 'emise',
        description: 'Sent to the customer; now binding.',
      },
      pay: { from: ['emise'], to: 'payee', description: 'Fully paid.' },
      cancel: { from: ['brouillon', 'emise'], to: 'annulee', description: 'Void.' },
    },
  },
  events: { created: true, statusChanged: true },
});

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
    lines: pricedLines(),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      issue: { from: ['brouillon'], to: 'emis', description: 'Sent to the customer.' },
      apply: {
        from: ['emis'],
        to: 'impute',
        description: 'Offset against the invoice or refunded.',
      },
      cancel: { from: ['brouillon', 'emis'], to: 'annule', description: 'Void.' },
    },
  },
  events: { created: true, statusChanged: true },
});

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
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 100,
      description: "The number printed on the supplier's invoice.",
      example: 'F-2026-0412',
    }),
    invoice_date: date({ required: true, filterable: true, sortable: true }),
    due_date: date({ required: true, filterable: true, sortable: true }),
    currency: currency(),
    lines: pricedLines(),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      submit: {
        from: ['brouillon'],
        to: 'en_attente_approbation',
        description: 'Sent for approval.',
      },
      approve: {
        from: ['en_attente_approbation'],
        to: 'approuve',
        emits: 'approved',
        description: 'Approved for payment.',
      },
      reject: { from: ['en_attente_approbation'], to: 'rejete', description: 'Disputed.' },
      pay: { from: ['approuve'], to: 'payee', description: 'Paid to the supplier.' },
      reopen: { from: ['rejete'], to: 'brouillon', description: 'Back to draft to be corrected.' },
    },
  },
  events: { created: true, statusChanged: true },
});

/** Money received or paid (ERPNext Payment Entry, Odoo account.payment). */
export const payments = defineResource({
  name: 'payment',
  path: 'payments',
  module: 'accounting',
  description: 'A payment received from a customer or made to a supplier.',
  numbering: { prefix: 'PAY' },
  fields: {
    direction: enumOf(['incoming', 'outgoing'], {
      required: true,
      filterable: true,
      description: 'incoming: from a customer; outgoing: to a supplier.',
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
    notes: notes(),
  },
  events: { created: true },
});
