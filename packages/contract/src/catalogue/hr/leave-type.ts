import { defineResource } from '../../registry/define';
import { boolean, decimal, enumOf, integer } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A kind of leave and its rules (ERPNext Leave Type, Odoo hr.leave.type). */
export const leaveTypes = defineResource({
  name: 'leave_type',
  path: 'leave-types',
  module: 'hr',
  description:
    'A kind of leave (paid holiday, sickness, unpaid…) and its rules: paid or not, allocated or not, approved or not, carried forward.',
  fields: {
    code: code('CP'),
    name: title('Paid holiday'),
    leave_kind: enumOf(
      ['paid', 'sick', 'unpaid', 'parental', 'compensatory', 'training', 'other'],
      { required: true, filterable: true, example: 'paid' },
    ),
    is_paid: boolean({
      required: true,
      filterable: true,
      description: 'The employee is paid during the leave.',
      example: true,
    }),
    requires_allocation: boolean({
      required: true,
      description: 'Requests must fall within an allocation (a balance of days).',
      example: true,
    }),
    requires_approval: boolean({
      required: true,
      description: 'Requests wait for an approver.',
      example: true,
    }),
    request_unit: enumOf(['day', 'half_day', 'hour'], {
      required: true,
      description: 'The smallest amount that can be requested.',
      example: 'day',
    }),
    max_consecutive_days: integer({
      min: 1,
      max: 366,
      description: 'Longest leave of this type in one request; empty for no limit.',
      example: 24,
    }),
    accrual_days_per_month: decimal({
      min: 0,
      max: 31,
      description: 'Days earned per month worked, for accrual allocations.',
      example: '2.08',
    }),
    max_carry_forward_days: decimal({
      min: 0,
      max: 366,
      description: 'Unused days that may move to the next period.',
      example: '5',
    }),
    allow_negative_balance: boolean({
      description: 'Requests may exceed the balance (taken in advance).',
      example: false,
    }),
  },
  lifecycle: lifecycles.archivable(),
});
