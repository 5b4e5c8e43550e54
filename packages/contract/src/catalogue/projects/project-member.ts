import { defineResource } from '../../registry/define';
import { date, enumOf, money, reference } from '../../registry/fields';
import { percent } from '../field-sets';

/** Someone on a project's team (ERPNext Project User, Odoo project members, BC Job resource). */
export const projectMembers = defineResource({
  name: 'project_member',
  path: 'project-members',
  module: 'projects',
  description: "An employee on a project's team: their role, share of time and rate.",
  fields: {
    project_id: reference('project', { required: true, filterable: true }),
    employee_id: reference('employee', { required: true, filterable: true }),
    role: enumOf(['manager', 'member', 'reviewer', 'stakeholder'], {
      required: true,
      filterable: true,
      example: 'member',
    }),
    allocation_percent: percent({
      description: 'Share of their working time given to the project.',
      example: '50',
    }),
    start_date: date({ filterable: true }),
    end_date: date({ filterable: true }),
    billing_rate_cents: money({
      min: 0,
      description: 'Hourly rate billed for them on this project, overriding the activity’s.',
    }),
  },
});
