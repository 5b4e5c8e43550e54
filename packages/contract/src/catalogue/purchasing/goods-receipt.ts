import { defineResource } from '../../registry/define';
import { date, decimal, reference, text } from '../../registry/fields';
import { notes, stockLines } from '../field-sets';

/** Goods received against a purchase order (ERPNext Purchase Receipt, Odoo incoming picking). */
export const goodsReceipts = defineResource({
  name: 'goods_receipt',
  path: 'goods-receipts',
  module: 'purchasing',
  description: 'What arrived from a supplier, into which warehouse, for a purchase order.',
  numbering: { prefix: 'GR' },
  fields: {
    purchase_order_id: reference('purchase_order', { required: true, filterable: true }),
    supplier_id: reference('supplier', { required: true, filterable: true }),
    warehouse_id: reference('warehouse', {
      required: true,
      filterable: true,
      description: 'Warehouse the goods were put in.',
    }),
    location_id: reference('stock_location', {
      filterable: true,
      description: 'Location the goods were put away in (the warehouse’s stock when empty).',
    }),
    received_on: date({ required: true, filterable: true, sortable: true, example: '2026-03-16' }),
    supplier_delivery_note: text({
      maxLength: 100,
      filterable: true,
      description: "The number on the supplier's delivery note.",
    }),
    lines: stockLines({
      rejected_quantity: decimal({ min: 0, description: 'Part of the quantity refused.' }),
      lot_number: text({ maxLength: 100, description: 'Batch or lot of the goods.' }),
      lot_id: reference('lot', { description: 'The lot recorded for the goods, once created.' }),
    }),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      validate: { from: ['brouillon'], to: 'valide', description: 'The goods are in stock.' },
      cancel: { from: ['brouillon'], to: 'annule', description: 'Recorded by mistake.' },
    },
  },
  stock: [
    {
      action: 'validate',
      date: 'received_on',
      lines: 'lines',
      from: 'outside',
      to: { warehouse: 'warehouse_id', location: 'location_id' },
      cost: 'source_line',
      counterpart: { setting: 'stock_received_not_billed' },
    },
  ],
  events: ['created', 'status_changed'],
});
