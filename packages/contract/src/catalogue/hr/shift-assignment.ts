import { defineResource } from '../../registry/define';
import { date, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';

/** An employee put on a shift for some days (ERPNext Shift Assignment, Odoo planning.slot). */
export const shiftAssignments = defineResource({
  name: 'shift_assignment',
  path: 'shift-assignments',
  module: 'hr',
  description: 'An employee working a shift type from one day to another; counts once validated.',
  fields: {
    employee_id: reference('employee', { required: true, filterable: true }),
    shift_type_id: reference('shift_type', { required: true, filterable: true }),
    start_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-02' }),
    end_date: date({
      filterable: true,
      description: 'Last day; empty until further notice.',
      example: '2026-03-29',
    }),
    notes: text({ maxLength: 1000 }),
  },
  lifecycle: lifecycles.validatable(),
});
