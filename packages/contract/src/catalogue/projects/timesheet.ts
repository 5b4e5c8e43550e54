import { defineResource } from '../../registry/define';
import { boolean, date, decimal, money, reference, text } from '../../registry/fields';
import { lifecycles, withActions } from '../../registry/lifecycles';

/** Time an employee spent on a project (Odoo account.analytic.line from hr_timesheet, ERPNext Timesheet, BC Time Sheet). */
export const timesheets = defineResource({
  name: 'timesheet',
  path: 'timesheets',
  module: 'projects',
  description:
    'Hours an employee spent on a project and task on one day: submitted, approved, then invoiced when billable.',
  numbering: { prefix: 'TS' },
  fields: {
    employee_id: reference('employee', { required: true, filterable: true }),
    project_id: reference('project', { required: true, filterable: true }),
    task_id: reference('task', { filterable: true }),
    activity_type_id: reference('activity_type', { filterable: true }),
    work_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-04' }),
    hours: decimal({ required: true, min: 0, max: 24, example: '7.5' }),
    is_billable: boolean({ required: true, filterable: true, example: true }),
    billing_rate_cents: money({
      min: 0,
      description: 'Price of one hour to the customer.',
      example: 9_500,
    }),
    costing_rate_cents: money({ min: 0, description: 'Cost of one hour.', example: 5_200 }),
    invoice_id: reference('invoice', {
      filterable: true,
      description: 'The invoice the hours were billed on.',
    }),
    description: text({ maxLength: 2000, example: 'Home page mock-ups, second round' }),
  },
  lifecycle: withActions(lifecycles.approvable(), {
    invoice: { from: ['approuve'], to: 'facture', description: 'Billed to the customer.' },
  }),
});
