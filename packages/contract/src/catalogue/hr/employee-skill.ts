import { defineResource } from '../../registry/define';
import { boolean, date, enumOf, reference, text } from '../../registry/fields';

/** A skill an employee has and how well (Odoo hr.employee.skill, ERPNext Employee Skill Map). */
export const employeeSkills = defineResource({
  name: 'employee_skill',
  path: 'employee-skills',
  module: 'hr',
  description: 'A skill an employee has, at what level, and until when a certification is valid.',
  fields: {
    employee_id: reference('employee', { required: true, filterable: true }),
    skill_id: reference('skill', { required: true, filterable: true }),
    level: enumOf(['beginner', 'intermediate', 'advanced', 'expert'], {
      required: true,
      filterable: true,
      example: 'advanced',
    }),
    acquired_on: date({ filterable: true }),
    is_certified: boolean({ description: 'Backed by a certificate.', example: false }),
    valid_until: date({ filterable: true, description: 'When the certificate expires.' }),
    notes: text({ maxLength: 1000 }),
  },
});
