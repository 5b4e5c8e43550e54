import { defineResource } from '../../registry/define';
import { decimal, enumOf, integer, lines, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, title } from '../field-sets';

/** What a project is planned to cost, line by line (BC Job Planning Lines of type budget, ERPNext Budget against a project). */
export const projectBudgets = defineResource({
  name: 'project_budget',
  path: 'project-budgets',
  module: 'projects',
  description:
    'The planned cost of a project by category and account, in revisions; approved before it is the reference.',
  numbering: { prefix: 'PBG' },
  fields: {
    project_id: reference('project', { required: true, filterable: true }),
    name: title('Initial budget', { maxLength: 100 }),
    revision: integer({
      required: true,
      min: 1,
      max: 1000,
      description: 'The budget’s revision, from 1.',
      example: 1,
    }),
    currency: currency(),
    lines: lines(
      {
        category: enumOf(
          ['labour', 'materials', 'subcontracting', 'travel', 'equipment', 'other'],
          { required: true, example: 'labour' },
        ),
        description: text({ required: true, maxLength: 500, example: 'Front-end development' }),
        account_id: reference('account', { description: 'The expense account it is planned on.' }),
        activity_type_id: reference('activity_type'),
        quantity: decimal({ min: 0, description: 'Hours or units planned.', example: '120' }),
        unit_cost_cents: money({ min: 0, example: 5_200 }),
        amount_cents: money({
          required: true,
          min: 0,
          description: 'Planned cost of the line: quantity × unit cost when both are given.',
          example: 624_000,
        }),
      },
      { required: true, maxItems: 500, description: 'The planned costs.' },
    ),
    notes: text({ maxLength: 5000 }),
  },
  lifecycle: lifecycles.approvable(),
});
