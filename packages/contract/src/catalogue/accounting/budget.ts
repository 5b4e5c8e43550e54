import { defineResource } from '../../registry/define';
import { enumOf, lines, money, reference, text } from '../../registry/fields';
import { lifecycles, withActions } from '../../registry/lifecycles';
import { currency, notes, title } from '../field-sets';

/** Planned amounts per account and period (ERPNext Budget, Odoo budget.analytic, BC G/L budget). */
export const budgets = defineResource({
  name: 'budget',
  path: 'budgets',
  module: 'accounting',
  description:
    'A budget for a fiscal year and a cost centre or project: planned amounts per account and period, approved before actuals are checked against it.',
  numbering: { prefix: 'BUD' },
  fields: {
    name: title('Budget 2026 — Ventes France'),
    fiscal_year_id: reference('fiscal_year', { required: true, filterable: true }),
    cost_center_id: reference('cost_center', {
      filterable: true,
      description: 'The cost centre it is for; empty for the whole company.',
    }),
    project_id: reference('project', { filterable: true, description: 'The project it is for.' }),
    action_if_exceeded: enumOf(['stop', 'warn', 'ignore'], {
      required: true,
      filterable: true,
      description: 'What happens to a document that would exceed it: refused, warned or nothing.',
      example: 'warn',
    }),
    currency: currency(),
    lines: lines(
      {
        account_id: reference('account', { required: true }),
        accounting_period_id: reference('accounting_period', {
          description: 'The period; empty for the whole year.',
        }),
        amount_cents: money({
          required: true,
          min: 0,
          description: 'Planned amount, in minor units.',
          example: 1_500_000,
        }),
        label: text({ maxLength: 255 }),
      },
      { required: true, description: 'Planned amounts per account and period.' },
    ),
    notes: notes(),
  },
  lifecycle: withActions(lifecycles.approvable(), {
    close: {
      from: ['approuve'],
      to: 'ferme',
      description: 'The year is over; nothing is checked against it any more.',
    },
  }),
});
