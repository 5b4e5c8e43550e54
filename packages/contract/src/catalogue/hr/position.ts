import { defineResource } from '../../registry/define';
import { integer, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** A job in the organisation (ERPNext Designation, Odoo hr.job). */
export const positions = defineResource({
  name: 'position',
  path: 'positions',
  module: 'hr',
  description: 'A job of the organisation, in a department, with how many people it needs.',
  fields: {
    name: title('Buyer', { fake: 'job_title' }),
    department_id: reference('department', { filterable: true }),
    headcount: integer({
      min: 0,
      max: 100_000,
      description: 'People the position needs.',
      example: 2,
    }),
    description: text({ maxLength: 5000 }),
  },
  lifecycle: lifecycles.archivable(),
});
