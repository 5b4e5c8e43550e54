import { defineResource } from '../../registry/define';
import { decimal, enumOf, integer, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';

/** When and how much to replenish a product in a warehouse (Odoo stock.warehouse.orderpoint, ERPNext Item Reorder, BC stockkeeping unit reordering). */
export const reorderRules = defineResource({
  name: 'reorder_rule',
  path: 'reorder-rules',
  module: 'inventory',
  description:
    'Minimum and maximum stock of a product in a warehouse: below the minimum, replenish up to the maximum.',
  fields: {
    product_id: reference('product', { required: true, filterable: true }),
    warehouse_id: reference('warehouse', { required: true, filterable: true }),
    location_id: reference('stock_location', { filterable: true }),
    min_quantity: decimal({
      required: true,
      min: 0,
      description: 'Reorder when the forecast falls below.',
      example: '20',
    }),
    max_quantity: decimal({
      required: true,
      min: 0,
      description: 'Replenish up to this quantity.',
      example: '100',
    }),
    multiple_quantity: decimal({
      min: 0,
      description: 'Order in multiples of this (a box, a pallet).',
      example: '10',
    }),
    replenishment_method: enumOf(['buy', 'manufacture', 'transfer'], {
      required: true,
      filterable: true,
      example: 'buy',
    }),
    trigger: enumOf(['auto', 'manual'], {
      required: true,
      filterable: true,
      description: 'auto: orders are proposed by the scheduler; manual: listed for a planner.',
      example: 'auto',
    }),
    supplier_id: reference('supplier', {
      filterable: true,
      description: 'Preferred supplier when bought.',
    }),
    lead_time_days: integer({ min: 0, max: 365, example: 7 }),
  },
  lifecycle: lifecycles.archivable(),
});
