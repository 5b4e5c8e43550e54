import { defineResource } from '../../registry/define';
import { date, money, reference, text } from '../../registry/fields';
import { percent, title } from '../field-sets';

/** A point of a project that is reached, and may be billed (Odoo project.milestone, ERPNext milestone tasks, BC job task milestones). */
export const milestones = defineResource({
  name: 'milestone',
  path: 'milestones',
  module: 'projects',
  description:
    'A point of a project to reach by a date; on a fixed-price project, reaching it may be billed.',
  fields: {
    project_id: reference('project', { required: true, filterable: true }),
    name: title('Beta delivered'),
    due_date: date({ required: true, filterable: true, sortable: true, example: '2026-04-30' }),
    reached_on: date({ filterable: true, description: 'Day it was reached.' }),
    amount_cents: money({
      min: 0,
      description: 'Amount billed when it is reached (fixed-price projects).',
      example: 1_200_000,
    }),
    invoice_percent: percent({ description: 'Share of the contract price billed when reached.' }),
    description: text({ maxLength: 2000 }),
  },
  lifecycle: {
    initial: 'planifie',
    actions: {
      reach: { from: ['planifie'], to: 'termine', description: 'Reached.' },
      reopen: { from: ['termine'], to: 'planifie', description: 'Not reached after all.' },
      cancel: { from: ['planifie'], to: 'annule', description: 'Dropped from the plan.' },
    },
  },
});
