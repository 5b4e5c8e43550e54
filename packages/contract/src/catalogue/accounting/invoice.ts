import { defineResource } from '../../registry/define';
import { date, reference, text } from '../../registry/fields';
import { currency, notes, paymentTermsDays, pricedLines } from '../field-sets';

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
        to: 'emis',
        description: 'Sent to the customer; now binding.',
      },
      pay: { from: ['emis'], to: 'paye', description: 'Fully paid.' },
      cancel: { from: ['brouillon', 'emis'], to: 'annule', description: 'Void.' },
    },
  },
  events: ['created', 'status_changed'],
});
