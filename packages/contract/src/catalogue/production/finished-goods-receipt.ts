import { defineResource } from '../../registry/define';
import { date, decimal, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { notes } from '../field-sets';

/** Finished products put into stock from a production order (ERPNext Stock Entry "Manufacture", Odoo finished-product moves, BC Output Journal). */
export const finishedGoodsReceipts = defineResource({
  name: 'finished_goods_receipt',
  path: 'finished-goods-receipts',
  module: 'production',
  description:
    'Finished products a production order put into a warehouse; validated, they enter stock at their cost.',
  numbering: { prefix: 'FGR' },
  fields: {
    production_order_id: reference('production_order', { required: true, filterable: true }),
    product_id: reference('product', {
      required: true,
      filterable: true,
      description: 'The product made (the production order’s).',
    }),
    quantity: decimal({ required: true, min: 0, example: '48' }),
    unit_of_measure: text({ maxLength: 32, example: 'Unit' }),
    warehouse_id: reference('warehouse', {
      required: true,
      filterable: true,
      description: 'Warehouse the products go to.',
    }),
    receipt_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-13' }),
    lot_number: text({
      maxLength: 64,
      filterable: true,
      fake: 'code',
      description: 'Lot the units are tracked under.',
      example: 'LOT-2026-0201',
    }),
    unit_cost_cents: money({
      min: 0,
      description: 'Cost of one unit: components, work centre time and overheads.',
      example: 8200,
    }),
    notes: notes(),
  },
  lifecycle: lifecycles.validatable(),
});
