import { defineResource } from '../../registry/define';
import { date, enumOf, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes, pricedLines } from '../field-sets';

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
  lifecycle: lifecycles.approvable({
    approve: { emits: 'approved', description: 'Accepted.' },
    reject: { emits: 'rejected', description: 'Refused.' },
    afterApproval: {
      reimburse: { from: ['approuve'], to: 'rembourse', description: 'Paid back to the employee.' },
    },
    reopen: false,
    cancel: false,
  }),
  events: ['created', 'approved', 'rejected'],
});
