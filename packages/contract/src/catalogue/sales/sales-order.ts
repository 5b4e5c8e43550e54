import { defineResource } from '../../registry/define';
import { date, reference, text } from '../../registry/fields';
import {
  addressFields,
  currency,
  customerReference,
  notes,
  paymentTermsDays,
  pricedLines,
} from '../field-sets';

/** A confirmed order (ERPNext Sales Order, Odoo sale.order). Lifecycle as SPEC §6. */
export const salesOrders = defineResource({
  name: 'sales_order',
  path: 'sales-orders',
  module: 'sales',
  description: 'A customer order: confirmed, delivered, then invoiced.',
  numbering: { prefix: 'SO' },
  fields: {
    customer_id: customerReference(),
    quote_id: reference('quote', { filterable: true, description: 'The accepted quote, if any.' }),
    opportunity_id: reference('opportunity', {
      filterable: true,
      description: 'The deal it closes.',
    }),
    blanket_order_id: reference('blanket_order', {
      filterable: true,
      description: 'The blanket order it calls quantities off.',
    }),
    salesperson_id: reference('salesperson', {
      filterable: true,
      description: 'Who is credited with the sale (commissions).',
    }),
    price_list_id: reference('price_list', {
      filterable: true,
      description: 'The list the line prices come from.',
    }),
    order_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-05' }),
    delivery_date: date({
      filterable: true,
      description: 'Date the customer expects the goods.',
      example: '2026-03-20',
    }),
    customer_reference: text({
      maxLength: 100,
      filterable: true,
      description: "The customer's own purchase order number.",
      example: 'PO-88412',
    }),
    warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'Warehouse the goods ship from.',
    }),
    currency: currency(),
    payment_terms_days: paymentTermsDays(),
    shipping_method_id: reference('shipping_method', { filterable: true }),
    incoterm_id: reference('incoterm', { filterable: true }),
    incoterm_location: text({
      maxLength: 100,
      description: 'The named place of the Incoterms rule.',
      example: 'Milano, IT',
    }),
    ...addressFields('shipping'),
    lines: pricedLines(),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      confirm: { from: ['brouillon'], to: 'confirme', description: 'The order is accepted.' },
      deliver: { from: ['confirme'], to: 'livre', description: 'The goods were delivered.' },
      invoice: { from: ['livre'], to: 'facture', description: 'The order was invoiced.' },
      cancel: { from: ['brouillon', 'confirme'], to: 'annule', description: 'The order is void.' },
    },
  },
  events: ['created', 'status_changed'],
});
