import { defineResource } from '../../registry/define';
import { date, reference, text } from '../../registry/fields';
import { addressFields, customerReference, notes, stockLines } from '../field-sets';

/** Goods leaving a warehouse for a customer (ERPNext Delivery Note, Odoo outgoing stock.picking). */
export const deliveries = defineResource({
  name: 'delivery',
  path: 'deliveries',
  module: 'sales',
  description: 'A delivery note: what leaves which warehouse for a sales order.',
  numbering: { prefix: 'DN' },
  fields: {
    sales_order_id: reference('sales_order', { required: true, filterable: true }),
    customer_id: customerReference(),
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
    shipping_method_id: reference('shipping_method', {
      filterable: true,
      description: 'The carrier service; `carrier` repeats its carrier name.',
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
  stock: [
    {
      action: 'ship',
      date: 'scheduled_date',
      lines: 'lines',
      from: { warehouse: 'warehouse_id' },
      to: 'outside',
      counterpart: { setting: 'cost_of_goods_sold' },
    },
  ],
  events: ['created', 'status_changed'],
});
