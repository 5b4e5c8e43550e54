import { defineResource } from '../registry/define';
import { date, reference, text } from '../registry/fields';
import {
  addressFields,
  currency,
  notes,
  paymentTermsDays,
  pricedLines,
  stockLines,
} from './field-sets';

const customerId = () =>
  reference('customer', {
    required: true,
    filterable: true,
    example: '01935c1e-7b2a-7c3d-9e4f-a1b2c3d4e5f6',
  });

/** An offer sent to a customer (ERPNext Quotation, Odoo sale.order in state draft/sent). */
export const quotes = defineResource({
  name: 'quote',
  path: 'quotes',
  module: 'sales',
  description: 'A priced offer to a customer; once accepted it usually becomes a sales order.',
  numbering: { prefix: 'QT' },
  fields: {
    customer_id: customerId(),
    lead_id: reference('lead', { filterable: true, description: 'The opportunity it answers.' }),
    quote_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-02' }),
    valid_until: date({
      filterable: true,
      description: 'The offer expires after this day.',
      example: '2026-04-01',
    }),
    currency: currency(),
    payment_terms_days: paymentTermsDays(),
    lines: pricedLines(),
    terms: text({ maxLength: 5000, description: 'Terms and conditions printed on the quote.' }),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      send: {
        from: ['brouillon'],
        to: 'envoye',
        description: 'The quote was sent to the customer.',
      },
      accept: { from: ['envoye'], to: 'accepte', description: 'The customer accepted the offer.' },
      refuse: { from: ['envoye'], to: 'refuse', description: 'The customer declined the offer.' },
      cancel: {
        from: ['brouillon', 'envoye'],
        to: 'annule',
        description: 'Withdrawn by the seller.',
      },
    },
  },
  events: { created: true, statusChanged: true },
});

/** A confirmed order (ERPNext Sales Order, Odoo sale.order). Lifecycle as SPEC §6. */
export const salesOrders = defineResource({
  name: 'sales_order',
  path: 'sales-orders',
  module: 'sales',
  description: 'A customer order: confirmed, delivered, then invoiced.',
  numbering: { prefix: 'SO' },
  fields: {
    customer_id: customerId(),
    quote_id: reference('quote', { filterable: true, description: 'The accepted quote, if any.' }),
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
  events: { created: true, statusChanged: true },
});

/** Goods leaving a warehouse for a customer (ERPNext Delivery Note, Odoo outgoing stock.picking). */
export const deliveries = defineResource({
  name: 'delivery',
  path: 'deliveries',
  module: 'sales',
  description: 'A delivery note: what leaves which warehouse for a sales order.',
  numbering: { prefix: 'DN' },
  fields: {
    sales_order_id: reference('sales_order', { required: true, filterable: true }),
    customer_id: customerId(),
    warehouse_id: reference('warehouse', {
      required: true,
      filterable: true,
      description: 'Warehouse the goods leave from.',
    }),
    scheduled_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-18',
    }),
    carrier: text({ maxLength: 100, filterable: true, example: 'DHL' }),
    tracking_number: text({ maxLength: 100, filterable: true, example: 'JD014600006281230000' }),
    ...addressFields('shipping'),
    lines: stockLines(),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      ship: { from: ['brouillon'], to: 'expedie', description: 'The goods left the warehouse.' },
      deliver: { from: ['expedie'], to: 'livre', description: 'The customer received the goods.' },
      cancel: { from: ['brouillon'], to: 'annule', description: 'Nothing will be shipped.' },
    },
  },
  events: { created: true, statusChanged: true },
});
