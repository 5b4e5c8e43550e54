import { defineResource } from '../../registry/define';
import { decimal, enumOf, integer, lines, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A project's standard tasks, to start similar projects from (ERPNext Project Template, Odoo project templates). */
export const projectTemplates = defineResource({
  name: 'project_template',
  path: 'project-templates',
  module: 'projects',
  description: 'The standard tasks of a kind of project, to start new projects from.',
  fields: {
    code: code('WEB'),
    name: title('Website project', { maxLength: 100 }),
    billing_method: enumOf(['fixed_price', 'time_and_materials', 'non_billable'], {
      required: true,
      filterable: true,
      example: 'fixed_price',
    }),
    duration_days: integer({ min: 1, max: 3650, description: 'Usual length.', example: 90 }),
    tasks: lines(
      {
        name: text({ required: true, maxLength: 200, example: 'Kick-off workshop' }),
        offset_days: integer({
          required: true,
          min: 0,
          max: 3650,
          description: 'Days after the project start the task starts.',
          example: 0,
        }),
        duration_days: integer({ required: true, min: 1, max: 3650, example: 5 }),
        planned_hours: decimal({ min: 0, max: 100_000, example: '16' }),
        activity_type_id: reference('activity_type'),
      },
      { required: true, maxItems: 200, description: 'The tasks a new project starts with.' },
    ),
    description: text({ maxLength: 5000 }),
  },
  lifecycle: lifecycles.archivable(),
});
