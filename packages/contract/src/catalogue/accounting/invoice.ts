import { salesPosting } from '../../ledger/postings';
import { defineResource } from '../../registry/define';
import { date, reference, text } from '../../registry/fields';
import { currency, exchangeRate, notes, paymentTermsDays, pricedLines } from '../field-sets';

/** A customer invoice (ERPNext Sales Invoice, Odoo account.move of type out_invoice). */
export const invoices = defineResource({
  name: 'invoice',
  path: 'invoices',
  module: 'accounting',
  description:
    'A customer invoice: issuing it posts it to the ledger; allocations settle it (`amount_due_cents`, `partiellement_paye`, `paye`); cancelling an issued one posts its reversal.',
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
    exchange_rate: exchangeRate(),
    payment_terms_days: paymentTermsDays(),
    payment_term_id: reference('payment_term', {
      filterable: true,
      description: 'The payment term the due date follows.',
    }),
    journal_id: reference('journal', {
      filterable: true,
      description: 'The sales journal it is posted in.',
    }),
    fiscal_position_id: reference('fiscal_position', {
      filterable: true,
      description: 'The tax regime applied (intra-EU, export).',
    }),
    bank_account_id: reference('bank_account', {
      description: 'The bank account printed for the customer to pay into.',
    }),
    lines: pricedLines(),
    notes: notes(),
    salesperson_id: reference('salesperson', {
      filterable: true,
      description: 'Who sold it (commissions).',
    }),
    sales_subscription_id: reference('sales_subscription', {
      filterable: true,
      description: 'The subscription this invoice bills a period of.',
    }),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      issue: {
        from: ['brouillon'],
        to: 'emis',
        description: 'Sent to the customer; now binding: posts receivable, revenue and VAT.',
      },
      cancel: {
        from: ['brouillon', 'emis', 'partiellement_paye'],
        to: 'annule',
        description:
          'Void; an issued invoice is reversed in the ledger. Refused while payments are allocated to it (`document_lettre`).',
      },
    },
    settlement: { from: 'emis', partial: 'partiellement_paye', full: 'paye' },
  },
  postings: [
    salesPosting({
      action: 'issue',
      reverse: 'cancel',
      date: 'invoice_date',
      due: 'due_date',
      link: { column: 'invoice_id' },
    }),
  ],
  conversions: [
    {
      name: 'make_credit_note',
      target: 'credit_note',
      from: ['emis', 'partiellement_paye', 'paye'],
      link: 'invoice_id',
      counts: 'credited_quantity',
      countedBy: 'issue',
      uncountedBy: 'cancel',
      today: ['credit_note_date'],
      defaults: { reason: 'other' },
    },
  ],
  events: ['created', 'status_changed'],
});
