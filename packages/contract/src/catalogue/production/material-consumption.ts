import { defineResource } from '../../registry/define';
import { date, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { notes, stockLines } from '../field-sets';

/** Components taken from stock for a production order (ERPNext Stock Entry "Material Consumption for Manufacture", Odoo raw-material moves, BC Consumption Journal). */
export const materialConsumptions = defineResource({
  name: 'material_consumption',
  path: 'material-consumptions',
  module: 'production',
  description:
    'Components issued from a warehouse to a production order; validated, they leave stock.',
  numbering: { prefix: 'CONS' },
  fields: {
    production_order_id: reference('production_order', { required: true, filterable: true }),
    work_order_id: reference('work_order', {
      filterable: true,
      description: 'The operation that used them, when consumption is booked per operation.',
    }),
    warehouse_id: reference('warehouse', {
      required: true,
      filterable: true,
      description: 'Warehouse the components are taken from.',
    }),
    consumption_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-09',
    }),
    lines: stockLines(
      {
        lot_number: text({
          maxLength: 64,
          fake: 'code',
          description: 'Lot or serial number consumed, for traceability.',
          example: 'LOT-2026-0113',
        }),
      },
      { description: 'Components and quantities consumed.' },
    ),
    notes: notes(),
  },
  lifecycle: lifecycles.validatable(),
});
