import { defineResource } from '../../registry/define';
import { decimal, enumOf, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { period } from '../field-sets';

/** Days of a leave type granted to an employee for a period (ERPNext Leave Allocation, Odoo hr.leave.allocation). */
export const leaveAllocations = defineResource({
  name: 'leave_allocation',
  path: 'leave-allocations',
  module: 'hr',
  description:
    'Days of one leave type granted to an employee for a period: the balance leave requests draw on. Approved before it counts.',
  numbering: { prefix: 'LAL' },
  fields: {
    employee_id: reference('employee', { required: true, filterable: true }),
    leave_type_id: reference('leave_type', { required: true, filterable: true }),
    ...period(),
    days: decimal({
      required: true,
      min: 0,
      max: 366,
      description: 'Days granted for the period, carried-forward days included.',
      example: '25',
    }),
    carried_forward_days: decimal({
      min: 0,
      max: 366,
      description: 'Of which days unused in the previous period.',
      example: '3',
    }),
    allocation_kind: enumOf(['regular', 'accrual'], {
      required: true,
      filterable: true,
      description: 'Granted at once, or earned month by month.',
      example: 'regular',
    }),
    reason: text({ maxLength: 1000 }),
  },
  lifecycle: lifecycles.approvable(),
});
