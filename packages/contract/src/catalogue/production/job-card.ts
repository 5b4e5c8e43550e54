import { defineResource } from '../../registry/define';
import { date, decimal, lines, reference, text, timestamp } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';

/** An operator's report of time and quantities on a work order (ERPNext Job Card, Odoo workorder time tracking, BC Output Journal). */
export const jobCards = defineResource({
  name: 'job_card',
  path: 'job-cards',
  module: 'production',
  description:
    'Time spent and quantities done on a work order, logged by the operators; validated, it counts.',
  numbering: { prefix: 'JC' },
  fields: {
    work_order_id: reference('work_order', { required: true, filterable: true }),
    work_center_id: reference('work_center', { required: true, filterable: true }),
    posting_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-09' }),
    time_logs: lines(
      {
        employee_id: reference('employee', { description: 'The operator.' }),
        started_at: timestamp({ required: true, example: '2026-03-09T07:05:00+01:00' }),
        ended_at: timestamp({ example: '2026-03-09T11:50:00+01:00' }),
        minutes: decimal({ min: 0, example: '285' }),
        completed_quantity: decimal({ min: 0, example: '30' }),
      },
      {
        required: true,
        maxItems: 200,
        description: 'Work sessions, one per operator and stretch.',
      },
    ),
    completed_quantity: decimal({
      required: true,
      min: 0,
      description: 'Good units reported.',
      example: '48',
    }),
    rejected_quantity: decimal({ min: 0, description: 'Units rejected.', example: '2' }),
    total_minutes: decimal({ min: 0, description: 'Sum of the logs.', example: '360' }),
    remarks: text({ maxLength: 2000 }),
  },
  lifecycle: lifecycles.validatable(),
});
