import { defineResource } from '../../registry/define';
import { enumOf, lines, money, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, currency, percent, title } from '../field-sets';

/** The components a payslip is computed from (ERPNext Salary Structure, Odoo hr.payroll.structure). */
export const salaryStructures = defineResource({
  name: 'salary_structure',
  path: 'salary-structures',
  module: 'hr',
  description: 'The earnings and deductions payslips of a group of employees are computed from.',
  fields: {
    code: code('CADRES'),
    name: title('Executives, monthly', { maxLength: 100 }),
    pay_frequency: enumOf(['monthly', 'biweekly', 'weekly'], {
      required: true,
      filterable: true,
      example: 'monthly',
    }),
    currency: currency(),
    components: lines(
      {
        salary_component_id: reference('salary_component', { required: true }),
        amount_cents: money({
          min: 0,
          description: 'Amount for a fixed component, overriding its default.',
        }),
        rate: percent({ description: 'Rate for a percentage component, overriding its default.' }),
      },
      { required: true, maxItems: 100, description: 'The components, in payslip order.' },
    ),
  },
  lifecycle: lifecycles.archivable(),
});
