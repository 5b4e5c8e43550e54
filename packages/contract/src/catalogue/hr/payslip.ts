import { defineResource } from '../../registry/define';
import { date, decimal, enumOf, lines, money, reference, text } from '../../registry/fields';
import { currency, period } from '../field-sets';

/** An employee's pay for a period, component by component (ERPNext Salary Slip, Odoo hr.payslip). */
export const payslips = defineResource({
  name: 'payslip',
  path: 'payslips',
  module: 'hr',
  description:
    "An employee's pay for a period: earnings and deductions line by line, gross and net; validated, then paid.",
  numbering: { prefix: 'SLIP' },
  fields: {
    employee_id: reference('employee', { required: true, filterable: true }),
    payroll_run_id: reference('payroll_run', { filterable: true }),
    employment_contract_id: reference('employment_contract', { filterable: true }),
    salary_structure_id: reference('salary_structure', { filterable: true }),
    ...period(),
    payment_date: date({ filterable: true, example: '2026-03-31' }),
    currency: currency(),
    working_days: decimal({
      min: 0,
      max: 31,
      description: 'Working days in the period.',
      example: '22',
    }),
    paid_days: decimal({
      min: 0,
      max: 31,
      description: 'Days paid: working days less unpaid leave.',
      example: '22',
    }),
    lines: lines(
      {
        salary_component_id: reference('salary_component', { required: true }),
        description: text({ required: true, maxLength: 200, example: 'Base salary' }),
        line_type: enumOf(['earning', 'deduction', 'employer_contribution'], {
          required: true,
          example: 'earning',
        }),
        base_cents: money({ description: 'The amount a rate applies to.' }),
        rate: decimal({ min: 0, max: 100, description: 'Rate in percent.' }),
        amount_cents: money({ required: true, min: 0, example: 350_000 }),
      },
      { required: true, maxItems: 200, description: 'Earnings, deductions and contributions.' },
    ),
    gross_pay_cents: money({
      required: true,
      min: 0,
      filterable: true,
      sortable: true,
      description: 'Sum of the earning lines.',
      example: 350_000,
    }),
    total_deductions_cents: money({
      required: true,
      min: 0,
      description: 'Sum of the deduction lines.',
      example: 77_000,
    }),
    net_pay_cents: money({
      required: true,
      filterable: true,
      description: 'Gross pay less deductions: what the employee receives.',
      example: 273_000,
    }),
    journal_entry_id: reference('journal_entry', {
      filterable: true,
      description: 'The entry that posted it to the ledger.',
    }),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      validate: { from: ['brouillon'], to: 'valide', description: 'Checked; it will be paid.' },
      pay: { from: ['valide'], to: 'paye', description: 'Paid to the employee.' },
      cancel: { from: ['brouillon', 'valide'], to: 'annule', description: 'Void.' },
    },
  },
});
