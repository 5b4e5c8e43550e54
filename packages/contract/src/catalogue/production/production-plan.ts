import { defineResource } from '../../registry/define';
import { date, decimal, lines, reference, text, USER } from '../../registry/fields';
import { lifecycles, withActions } from '../../registry/lifecycles';
import { notes, period, title } from '../field-sets';

/** What to make over a period (ERPNext Production Plan, Odoo master production schedule, BC planning worksheet). */
export const productionPlans = defineResource({
  name: 'production_plan',
  path: 'production-plans',
  module: 'production',
  description:
    'Products and quantities to make over a period, from forecasts or sales orders; approved, its lines become production orders.',
  numbering: { prefix: 'PPL' },
  fields: {
    name: title('Plan de production mars 2026', { maxLength: 200 }),
    ...period(),
    warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'Warehouse the finished goods go to.',
    }),
    planner_id: reference(USER, { filterable: true, description: 'Who prepared the plan.' }),
    lines: lines(
      {
        product_id: reference('product', { required: true }),
        bom_id: reference('bill_of_materials', {
          description: 'The BOM to make it with (the product’s default BOM when empty).',
        }),
        quantity: decimal({ required: true, min: 0, example: '200' }),
        unit_of_measure: text({ maxLength: 32, example: 'Unit' }),
        planned_date: date({ description: 'Date it is needed by.', example: '2026-03-20' }),
        sales_order_id: reference('sales_order', {
          description: 'The sales order it is made for, if made to order.',
        }),
      },
      { required: true, maxItems: 500, description: 'Products and quantities to make.' },
    ),
    notes: notes(),
  },
  lifecycle: withActions(lifecycles.approvable(), {
    complete: {
      from: ['approuve'],
      to: 'termine',
      description: 'Every planned quantity has been ordered.',
    },
  }),
});
