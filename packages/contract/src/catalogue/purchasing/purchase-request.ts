import { defineResource } from '../../registry/define';
import { date, enumOf, money, reference, text, USER } from '../../registry/fields';
import { lifecycles, withActions } from '../../registry/lifecycles';
import { notes, stockLines } from '../field-sets';

/** An internal request to buy (or move) goods, approved before buyers act (ERPNext Material Request, Odoo purchase.request, BC requisition worksheet). */
export const purchaseRequests = defineResource({
  name: 'purchase_request',
  path: 'purchase-requests',
  module: 'purchasing',
  description:
    'A request from a department for goods to be bought, moved or made: approved, then turned into requests for quotation or purchase orders.',
  numbering: { prefix: 'MR' },
  fields: {
    request_type: enumOf(['purchase', 'transfer', 'issue', 'manufacture'], {
      required: true,
      filterable: true,
      description:
        'purchase: to buy; transfer: from another warehouse; issue: out of stock for internal use; manufacture: to make.',
      example: 'purchase',
    }),
    requested_by_id: reference(USER, { filterable: true }),
    employee_id: reference('employee', {
      filterable: true,
      description: 'The employee who needs the goods.',
    }),
    department_id: reference('department', { filterable: true }),
    cost_center_id: reference('cost_center', { filterable: true }),
    project_id: reference('project', { filterable: true }),
    request_date: date({ required: true, filterable: true, sortable: true, example: '2026-02-23' }),
    required_by: date({ filterable: true, example: '2026-03-16' }),
    warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'Where the goods are needed.',
    }),
    priority: enumOf(['low', 'normal', 'high', 'urgent'], { filterable: true, example: 'normal' }),
    justification: text({ maxLength: 2000, description: 'Why the goods are needed.' }),
    lines: stockLines(
      {
        required_by: date(),
        estimated_unit_cost_cents: money({
          min: 0,
          description: 'The requester’s estimate, to check the budget.',
        }),
      },
      { description: 'Products and quantities requested.' },
    ),
    notes: notes(),
  },
  lifecycle: withActions(lifecycles.approvable(), {
    close: {
      from: ['approuve'],
      to: 'ferme',
      description: 'Everything requested was ordered; nothing is left to buy.',
    },
  }),
});
