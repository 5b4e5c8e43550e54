import { defineResource } from '../../registry/define';
import { boolean, integer, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** A column of a project's task board (Odoo project.task.type). */
export const taskStages = defineResource({
  name: 'task_stage',
  path: 'task-stages',
  module: 'projects',
  description:
    'A stage tasks move through (to do, in progress, in review, done), for one project or shared by all.',
  fields: {
    name: title('In review', { maxLength: 100 }),
    sequence: integer({
      required: true,
      sortable: true,
      min: 0,
      max: 10_000,
      description: 'Position on the board, left to right.',
      example: 30,
    }),
    project_id: reference('project', {
      filterable: true,
      description: 'The project it belongs to; empty for a stage every project uses.',
    }),
    is_closed: boolean({
      required: true,
      filterable: true,
      description: 'Tasks in this stage are finished (folded on the board).',
      example: false,
    }),
    description: text({ maxLength: 1000 }),
  },
  lifecycle: lifecycles.archivable(),
});
