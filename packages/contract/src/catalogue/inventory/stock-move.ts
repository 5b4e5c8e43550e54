import { defineResource } from '../../registry/define';
import { date, decimal, enumOf, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { notes } from '../field-sets';

/** A quantity of a product moving from one location to another (Odoo stock.move, ERPNext Stock Entry Detail, BC item journal line). */
export const stockMoves = defineResource({
  name: 'stock_move',
  path: 'stock-moves',
  module: 'inventory',
  description:
    'A quantity of a product (a lot, a serial number) moving from one location to another; once validated it changes the stock, and cancelling it moves the quantity back.',
  numbering: { prefix: 'SM' },
  fields: {
    move_type: enumOf(
      [
        'receipt',
        'delivery',
        'internal',
        'adjustment',
        'consumption',
        'production',
        'return',
        'scrap',
      ],
      { required: true, filterable: true, example: 'internal' },
    ),
    product_id: reference('product', { required: true, filterable: true }),
    variant_id: reference('product_variant', { filterable: true }),
    lot_id: reference('lot', { filterable: true }),
    serial_number_id: reference('serial_number', { filterable: true }),
    quantity: decimal({ required: true, min: 0, example: '24' }),
    unit_of_measure_id: reference('unit_of_measure', {
      filterable: true,
      description: 'Unit the quantity is in (the product’s when empty).',
    }),
    from_location_id: reference('stock_location', {
      required: true,
      filterable: true,
      description: 'Where the quantity leaves (a supplier location for a receipt).',
    }),
    to_location_id: reference('stock_location', {
      required: true,
      filterable: true,
      description: 'Where it arrives (a customer location for a delivery).',
    }),
    move_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-16' }),
    unit_cost_cents: money({
      min: 0,
      description: 'Value of one unit, for stock valuation.',
      example: 8200,
    }),
    goods_receipt_id: reference('goods_receipt', { filterable: true }),
    delivery_id: reference('delivery', { filterable: true }),
    stock_transfer_id: reference('stock_transfer', { filterable: true }),
    production_order_id: reference('production_order', { filterable: true }),
    origin: text({
      maxLength: 100,
      filterable: true,
      description: 'The source document’s number, as people quote it.',
      example: 'GR-2026-00012',
    }),
    notes: notes(),
  },
  lifecycle: lifecycles.validatable(),
  stock: [
    {
      action: 'validate',
      date: 'move_date',
      reverse: 'cancel',
      from: { location: 'from_location_id' },
      to: { location: 'to_location_id' },
      cost: 'field',
      counterpart: { setting: 'expense' },
    },
  ],
});
