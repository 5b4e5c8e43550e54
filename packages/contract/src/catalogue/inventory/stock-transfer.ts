import { defineResource } from '../../registry/define';
import { date, decimal, reference, text } from '../../registry/fields';
import { notes, stockLines } from '../field-sets';

/** Stock sent from one warehouse to another (BC Transfer Order, ERPNext Stock Entry of type Material Transfer, Odoo inter-warehouse picking). */
export const stockTransfers = defineResource({
  name: 'stock_transfer',
  path: 'stock-transfers',
  module: 'inventory',
  description: 'Goods sent from one warehouse to another: shipped, then received at the other end.',
  numbering: { prefix: 'TRF' },
  fields: {
    from_warehouse_id: reference('warehouse', { required: true, filterable: true }),
    to_warehouse_id: reference('warehouse', { required: true, filterable: true }),
    from_location_id: reference('stock_location', {
      filterable: true,
      description: 'Where the goods are picked (the warehouse’s stock when empty).',
    }),
    to_location_id: reference('stock_location', {
      filterable: true,
      description: 'Where they are put away on arrival.',
    }),
    transit_location_id: reference('stock_location', {
      description: 'Where the goods are counted while on the road.',
    }),
    shipment_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-10',
    }),
    receipt_date: date({
      filterable: true,
      description: 'Expected arrival.',
      example: '2026-03-12',
    }),
    carrier: text({ maxLength: 100, filterable: true, example: 'Geodis' }),
    tracking_number: text({ maxLength: 100, filterable: true }),
    lines: stockLines({
      variant_id: reference('product_variant'),
      lot_id: reference('lot'),
      received_quantity: decimal({ min: 0, description: 'What arrived, when it differs.' }),
    }),
    notes: notes(),
  },
  stock: [
    {
      action: 'ship',
      date: 'shipment_date',
      lines: 'lines',
      from: { warehouse: 'from_warehouse_id', location: 'from_location_id' },
      to: { warehouse: 'to_warehouse_id', location: 'to_location_id' },
      counterpart: { setting: 'stock' },
    },
  ],
  lifecycle: {
    initial: 'brouillon',
    actions: {
      ship: { from: ['brouillon'], to: 'expedie', description: 'The goods left the warehouse.' },
      receive: { from: ['expedie'], to: 'recu', description: 'The goods arrived.' },
      cancel: { from: ['brouillon'], to: 'annule', description: 'Nothing will be sent.' },
    },
  },
});
