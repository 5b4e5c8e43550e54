import { defineResource } from '../../registry/define';
import { boolean, date, decimal, enumOf, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { percent, title } from '../field-sets';

/** A piece of work in a project (ERPNext Task, Odoo project.task, BC Job Task). */
export const tasks = defineResource({
  name: 'task',
  path: 'tasks',
  module: 'projects',
  description:
    'A piece of work in a project, possibly under a parent task: who does it, by when, with how many hours planned.',
  numbering: { prefix: 'TASK' },
  fields: {
    project_id: reference('project', { required: true, filterable: true }),
    name: title('Design the home page'),
    parent_task_id: reference('task', {
      filterable: true,
      description: 'The task this one is a subtask of.',
    }),
    stage_id: reference('task_stage', {
      filterable: true,
      description: 'The column of the project board it sits in.',
    }),
    milestone_id: reference('milestone', {
      filterable: true,
      description: 'The milestone it contributes to.',
    }),
    assignee_id: reference(USER, { filterable: true, description: 'Who does the work.' }),
    priority: enumOf(['low', 'normal', 'high', 'urgent'], {
      required: true,
      filterable: true,
      example: 'normal',
    }),
    start_date: date({ filterable: true, example: '2026-03-02' }),
    deadline: date({ filterable: true, example: '2026-03-20' }),
    planned_hours: decimal({ min: 0, max: 100_000, example: '24' }),
    progress: percent({ description: 'Share of the work done, in percent.', example: '40' }),
    is_billable: boolean({
      description: 'Time spent on it is billed to the customer.',
      example: true,
    }),
    description: text({ maxLength: 10_000 }),
  },
  lifecycle: lifecycles.schedulable(),
});
