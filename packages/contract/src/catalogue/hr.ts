import { defineResource } from '../registry/define';
import { date, email, enumOf, reference, text, USER } from '../registry/fields';
import { currency, notes, pricedLines } from './field-sets';

/** A person employed by the tenant (ERPNext Employee, Odoo hr.employee). */
export const employees = defineResource({
  name: 'employee',
  path: 'employees',
  module: 'hr',
  description: 'A person employed by the tenant.',
  fields: {
    employee_number: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 32,
      description: "The tenant's own identifier for the employee.",
      example: 'E-0042',
    }),
    first_name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 100,
      example: 'Claire',
    }),
    last_name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 100,
      example: 'Martin',
    }),
    email: email({
      filterable: true,
      description: 'Work e-mail.',
      example: 'claire.martin@example.com',
    }),
    phone: text({ maxLength: 50 }),
    job_title: text({ maxLength: 100, filterable: true, example: 'Buyer' }),
    department: text({ maxLength: 100, filterable: true, example: 'Purchasing' }),
    manager_id: reference('employee', {
      filterable: true,
      description: 'Who the employee reports to.',
    }),
    employment_type: enumOf(
      ['full_time', 'part_time', 'fixed_term', 'contractor', 'intern', 'apprentice'],
      {
        filterable: true,
        example: 'full_time',
      },
    ),
    hire_date: date({ required: true, filterable: true, sortable: true, example: '2024-09-02' }),
    leaving_date: date({ filterable: true }),
    employment_status: enumOf(['active', 'left'], {
      required: true,
      filterable: true,
      description: 'Whether the employee still works for the tenant.',
      example: 'active',
    }),
    user_id: reference(USER, {
      filterable: true,
      description: 'The platform user account, if the employee has one.',
    }),
  },
});

/** Expenses an employee paid and claims back (ERPNext Expense Claim, Odoo hr.expense.sheet). */
export const expenseReports = defineResource({
  name: 'expense_report',
  path: 'expense-reports',
  module: 'hr',
  description:
    'Expenses an employee paid and claims back: submitted, approved or rejected, reimbursed.',
  numbering: { prefix: 'EXP' },
  fields: {
    employee_id: reference('employee', { required: true, filterable: true }),
    title: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 200,
      example: 'Customer visit, Lyon, March',
    }),
    report_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-31' }),
    approver_id: reference('employee', {
      filterable: true,
      description: 'Who approves the report.',
    }),
    currency: currency(),
    lines: pricedLines(
      {
        expense_date: date({ required: true, example: '2026-03-12' }),
        category: enumOf(
          [
            'travel',
            'accommodation',
            'meals',
            'transport',
            'fuel',
            'office_supplies',
            'training',
            'other',
          ],
          { required: true, example: 'meals' },
        ),
        receipt_reference: text({
          maxLength: 100,
          description: 'Number or file name of the receipt.',
        }),
      },
      { description: 'One line per expense; the totals are computed from them.' },
    ),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      submit: { from: ['brouillon'], to: 'soumis', description: 'Sent to the approver.' },
      approve: { from: ['soumis'], to: 'approuve', emits: 'approved', description: 'Accepted.' },
      reject: { from: ['soumis'], to: 'rejete', emits: 'rejected', description: 'Refused.' },
      reimburse: { from: ['approuve'], to: 'rembourse', description: 'Paid back to the employee.' },
    },
  },
  events: { created: true },
});
