import { defineResource } from '../../registry/define';
import { boolean, date, decimal, reference, text, USER } from '../../registry/fields';
import { lifecycles, withActions } from '../../registry/lifecycles';

/** An employee's request for time off (ERPNext Leave Application, Odoo hr.leave). */
export const leaveRequests = defineResource({
  name: 'leave_request',
  path: 'leave-requests',
  module: 'hr',
  description:
    'Time off an employee asks for, from one day to another: submitted, approved or rejected; an approved one may still be cancelled.',
  numbering: { prefix: 'LRQ' },
  fields: {
    employee_id: reference('employee', { required: true, filterable: true }),
    leave_type_id: reference('leave_type', { required: true, filterable: true }),
    allocation_id: reference('leave_allocation', {
      filterable: true,
      description: 'The allocation the days are taken from, for types that need one.',
    }),
    start_date: date({ required: true, filterable: true, sortable: true, example: '2026-07-20' }),
    end_date: date({
      required: true,
      filterable: true,
      description: 'Last day of leave (inclusive).',
      example: '2026-07-31',
    }),
    is_half_day: boolean({ description: 'Only half of the first day is taken.', example: false }),
    days: decimal({
      required: true,
      min: 0,
      max: 366,
      description: 'Working days taken, public holidays and days off excluded.',
      example: '10',
    }),
    reason: text({ maxLength: 1000, example: 'Summer holiday' }),
    approver_id: reference(USER, { filterable: true, description: 'Who approves the request.' }),
  },
  lifecycle: withActions(lifecycles.approvable(), {
    cancel: {
      from: ['brouillon', 'en_attente_approbation', 'approuve'],
      to: 'annule',
      description: 'Withdrawn; approved days go back to the balance.',
    },
  }),
});
