import { defineResource } from '../../registry/define';
import { date, enumOf, money, reference, text, USER } from '../../registry/fields';
import { lifecycles, withActions } from '../../registry/lifecycles';
import { code, notes, title } from '../field-sets';

/** A piece of work with a goal, a budget and a deadline (ERPNext Project, Odoo project.project, BC job). */
export const projects = defineResource({
  name: 'project',
  path: 'projects',
  module: 'projects',
  description: 'A project, for a customer or internal, with its dates, budget and manager.',
  numbering: { prefix: 'PRJ' },
  fields: {
    code: code('WEB-REDESIGN'),
    name: title('Website redesign'),
    customer_id: reference('customer', {
      filterable: true,
      description: 'Empty for an internal project.',
    }),
    manager_id: reference(USER, { filterable: true, description: 'Who runs the project.' }),
    billing_method: enumOf(['fixed_price', 'time_and_materials', 'non_billable'], {
      required: true,
      filterable: true,
      example: 'time_and_materials',
    }),
    start_date: date({ required: true, filterable: true, sortable: true, example: '2026-02-02' }),
    end_date: date({ filterable: true, description: 'Planned end.', example: '2026-06-30' }),
    budget_cents: money({ min: 0, description: 'Planned cost.', example: 4_500_000 }),
    cost_center_id: reference('cost_center', { filterable: true }),
    template_id: reference('project_template', {
      filterable: true,
      description: 'The template its first tasks came from.',
    }),
    department_id: reference('department', {
      filterable: true,
      description: 'The department that runs it.',
    }),
    sales_order_id: reference('sales_order', {
      filterable: true,
      description: 'The sales order it delivers, for a customer project.',
    }),
    description: text({ maxLength: 5000 }),
    notes: notes(),
    price_list_id: reference('price_list', {
      filterable: true,
      description: 'Prices billed for time and materials.',
    }),
  },
  lifecycle: withActions(lifecycles.schedulable(), {
    close: {
      from: ['termine'],
      to: 'ferme',
      description: 'Accounts settled; nothing more is booked.',
    },
  }),
});
