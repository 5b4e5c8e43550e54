import { defineResource } from '../../registry/define';
import { date, decimal, enumOf, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { notes } from '../field-sets';

/** Units written off as scrap (Odoo stock.scrap, ERPNext scrap items / Stock Entry "Material Issue", BC scrap codes in the Output Journal). */
export const scrapEntries = defineResource({
  name: 'scrap_entry',
  path: 'scrap-entries',
  module: 'production',
  description:
    'Units of a product or a component lost in production, with the reason; validated, they leave stock.',
  numbering: { prefix: 'SCR' },
  fields: {
    product_id: reference('product', { required: true, filterable: true }),
    quantity: decimal({ required: true, min: 0, example: '3' }),
    unit_of_measure: text({ maxLength: 32, example: 'Unit' }),
    production_order_id: reference('production_order', { filterable: true }),
    work_order_id: reference('work_order', {
      filterable: true,
      description: 'The operation where it was lost.',
    }),
    work_center_id: reference('work_center', { filterable: true }),
    warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'Warehouse the units are taken from.',
    }),
    scrap_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-10' }),
    reason: enumOf(
      [
        'defective_material',
        'machine_fault',
        'operator_error',
        'setup',
        'damaged',
        'expired',
        'other',
      ],
      { required: true, filterable: true, example: 'machine_fault' },
    ),
    lot_number: text({ maxLength: 64, fake: 'code', example: 'LOT-2026-0113' }),
    cost_cents: money({ min: 0, description: 'Value written off.', example: 2460 }),
    notes: notes(),
  },
  lifecycle: lifecycles.validatable(),
});
