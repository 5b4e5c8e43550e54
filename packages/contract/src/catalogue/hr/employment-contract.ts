import { defineResource } from '../../registry/define';
import { date, decimal, enumOf, integer, money, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes } from '../field-sets';

/** An employment contract (Odoo hr.contract, ERPNext Employee's contract and salary structure assignment). */
export const employmentContracts = defineResource({
  name: 'employment_contract',
  path: 'employment-contracts',
  module: 'hr',
  description:
    'The contract an employee works under: its type, dates, wage and working time; activated, suspended, terminated or expired.',
  numbering: { prefix: 'HRC' },
  fields: {
    employee_id: reference('employee', { required: true, filterable: true }),
    contract_type: enumOf(
      ['permanent', 'fixed_term', 'temporary', 'apprenticeship', 'internship', 'freelance'],
      {
        required: true,
        filterable: true,
        description: 'Permanent (CDI), fixed-term (CDD), temporary agency work, apprenticeship…',
        example: 'permanent',
      },
    ),
    position_id: reference('position', { filterable: true, description: 'The job it is for.' }),
    department_id: reference('department', { filterable: true }),
    start_date: date({ required: true, filterable: true, sortable: true, example: '2026-01-05' }),
    end_date: date({
      filterable: true,
      description: 'Last day; empty for a permanent contract.',
      example: '2026-12-31',
    }),
    trial_period_end_date: date({ description: 'Last day of the trial period.' }),
    signed_on: date({ filterable: true, description: 'Day both parties signed.' }),
    wage_cents: money({
      required: true,
      min: 0,
      description: 'Gross wage per wage period, in minor units.',
      example: 350_000,
    }),
    wage_period: enumOf(['hourly', 'monthly', 'yearly'], {
      required: true,
      description: 'What the wage is paid for.',
      example: 'monthly',
    }),
    currency: currency(),
    weekly_hours: decimal({
      min: 0,
      max: 168,
      description: 'Contractual working hours per week.',
      example: '35',
    }),
    shift_type_id: reference('shift_type', { description: 'The working schedule it sets.' }),
    salary_structure_id: reference('salary_structure', {
      filterable: true,
      description: 'How payslips under this contract are computed.',
    }),
    notice_period_days: integer({ min: 0, max: 365, example: 30 }),
    notes: notes(),
  },
  lifecycle: lifecycles.agreement(),
});
