import { defineResource } from '../../registry/define';
import { boolean, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A kind of expense employees claim, and where it is posted (ERPNext Expense Claim Type, Odoo expense products). */
export const expenseCategories = defineResource({
  name: 'expense_category',
  path: 'expense-categories',
  module: 'hr',
  description:
    'A kind of expense (travel, meals, lodging…), the account and tax it is posted with, and its ceiling.',
  fields: {
    code: code('MEALS'),
    name: title('Meals', { maxLength: 100 }),
    account_id: reference('account', {
      filterable: true,
      description: 'The expense account it is posted to (625 in the French PCG).',
    }),
    tax_rate_id: reference('tax_rate', { description: 'The deductible VAT usually applied.' }),
    max_amount_cents: money({
      min: 0,
      description: 'Above this amount per expense, a justification is asked for.',
      example: 2_500,
    }),
    requires_receipt: boolean({ required: true, example: true }),
    description: text({ maxLength: 1000 }),
  },
  lifecycle: lifecycles.archivable(),
});
