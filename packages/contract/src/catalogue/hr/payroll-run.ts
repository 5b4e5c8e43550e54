import { defineResource } from '../../registry/define';
import { date, enumOf, reference } from '../../registry/fields';
import { currency, notes, period, title } from '../field-sets';

/** The payslips of a pay period, computed, posted and paid together (ERPNext Payroll Entry, Odoo hr.payslip.run). */
export const payrollRuns = defineResource({
  name: 'payroll_run',
  path: 'payroll-runs',
  module: 'hr',
  description:
    "A pay period's payroll: its payslips are validated together, posted to the ledger, then paid.",
  numbering: { prefix: 'PAYR' },
  fields: {
    name: title('Payroll March 2026', { maxLength: 100 }),
    ...period(),
    payment_date: date({
      required: true,
      filterable: true,
      description: 'Day the salaries are paid.',
      example: '2026-03-31',
    }),
    pay_frequency: enumOf(['monthly', 'biweekly', 'weekly'], {
      required: true,
      filterable: true,
      example: 'monthly',
    }),
    department_id: reference('department', {
      filterable: true,
      description: 'Only its employees; empty for everyone.',
    }),
    currency: currency(),
    payable_account_id: reference('account', {
      description: 'The account net salaries are owed on until paid (421 in the French PCG).',
    }),
    cost_center_id: reference('cost_center', { filterable: true }),
    notes: notes(),
    journal_entry_id: reference('journal_entry', {
      filterable: true,
      description: 'The entry that posted the run to the ledger.',
    }),
    bank_account_id: reference('bank_account', {
      filterable: true,
      description: 'The account the salaries are paid from.',
    }),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      validate: {
        from: ['brouillon'],
        to: 'valide',
        description: 'Its payslips are computed and checked.',
      },
      post: { from: ['valide'], to: 'comptabilise', description: 'Posted to the ledger.' },
      pay: { from: ['comptabilise'], to: 'paye', description: 'Salaries paid.' },
      cancel: {
        from: ['brouillon', 'valide'],
        to: 'annule',
        description: 'Void; its payslips are not paid.',
      },
    },
  },
});
