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
      deliver: {
        from: ['confirme'],
        to: 'livre',
        description:
          'A shortcut: makes a delivery of every goods line that remains and ships it (the order becomes `livre` when all its goods have shipped).',
        shortcut: { conversion: 'make_delivery', runs: 'ship' },
      },
      invoice: {
        from: ['livre'],
        to: 'facture',
        description:
          'A shortcut: makes an invoice of everything delivered (services: ordered) and not yet invoiced, and issues it (the order becomes `facture` when every line is invoiced).',
        shortcut: { conversion: 'make_invoice', runs: 'issue', basis: 'delivered_quantity' },
      },
      cancel: { from: ['brouillon', 'confirme'], to: 'annule', description: 'The order is void.' },
    },
  },
  conversions: [
    {
      name: 'make_delivery',
      target: 'delivery',
      from: ['confirme', 'livre'],
      link: 'sales_order_id',
      counts: 'delivered_quantity',
      countedBy: 'ship',
      goods: true,
      today: ['scheduled_date'],
    },
    {
      name: 'make_invoice',
      target: 'invoice',
      from: ['confirme', 'livre'],
      link: 'sales_order_id',
      counts: 'invoiced_quantity',
      countedBy: 'issue',
      uncountedBy: 'cancel',
      today: ['invoice_date'],
      due: { field: 'due_date', days: 'payment_terms_days' },
    },
  ],
  progress: [
    { status: 'livre', after: 'confirme', when: 'delivered_quantity', goods: true },
    { status: 'facture', after: 'livre', when: 'invoiced_quantity' },
  ],
  reservation: {
    on: 'confirm',
    release: ['cancel'],
    warehouse: 'warehouse_id',
    consumedBy: 'delivered_quantity',
  },
  events: ['created', 'status_changed'],
});
