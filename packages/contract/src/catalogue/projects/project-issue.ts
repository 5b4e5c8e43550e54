import { defineResource } from '../../registry/define';
import { date, enumOf, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** A problem or change request raised on a project (ERPNext Issue with a project, Odoo project.task as issue). */
export const projectIssues = defineResource({
  name: 'project_issue',
  path: 'project-issues',
  module: 'projects',
  description:
    'A problem, blocker or change request raised on a project: assigned, worked on, resolved, closed.',
  numbering: { prefix: 'PIS' },
  fields: {
    project_id: reference('project', { required: true, filterable: true }),
    task_id: reference('task', { filterable: true, description: 'The task it concerns.' }),
    name: title('Payment page fails on Safari'),
    issue_type: enumOf(['bug', 'change_request', 'question', 'blocker', 'other'], {
      required: true,
      filterable: true,
      example: 'bug',
    }),
    severity: enumOf(['low', 'medium', 'high', 'critical'], {
      required: true,
      filterable: true,
      example: 'high',
    }),
    reported_on: date({ required: true, filterable: true, sortable: true, example: '2026-03-09' }),
    reported_by_id: reference(USER, { filterable: true }),
    assignee_id: reference(USER, { filterable: true }),
    due_date: date({ filterable: true }),
    description: text({ maxLength: 10_000 }),
    resolution: text({
      maxLength: 5000,
      fake: 'sentence',
      description: 'How it was resolved.',
    }),
  },
  lifecycle: lifecycles.ticket(),
});
