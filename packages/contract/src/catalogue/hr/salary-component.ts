import { defineResource } from '../../registry/define';
import { boolean, enumOf, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, percent, title } from '../field-sets';

/** An earning or a deduction on payslips (ERPNext Salary Component, Odoo hr.salary.rule). */
export const salaryComponents = defineResource({
  name: 'salary_component',
  path: 'salary-components',
  module: 'hr',
  description:
    'An earning, a deduction or an employer contribution of payslips, how it is computed and the account it is posted to.',
  fields: {
    code: code('BASE'),
    name: title('Base salary', { maxLength: 100 }),
    component_type: enumOf(['earning', 'deduction', 'employer_contribution'], {
      required: true,
      filterable: true,
      example: 'earning',
    }),
    calculation: enumOf(['fixed', 'percent_of_gross', 'percent_of_base', 'hours_based'], {
      required: true,
      description: 'A fixed amount, a rate of the gross or base pay, or hours times a rate.',
      example: 'fixed',
    }),
    amount_cents: money({
      min: 0,
      description: 'The default amount of a fixed component, in minor units.',
      example: 15_000,
    }),
    rate: percent({ description: 'The rate of a percentage component.', example: '6.9' }),
    is_taxable: boolean({
      required: true,
      description: 'Counts towards taxable income.',
      example: true,
    }),
    depends_on_payment_days: boolean({
      description: 'Prorated by the days paid in the period.',
      example: true,
    }),
    account_id: reference('account', {
      filterable: true,
      description: 'The ledger account the component is posted to.',
    }),
    description: text({ maxLength: 1000 }),
  },
  lifecycle: lifecycles.archivable(),
});
