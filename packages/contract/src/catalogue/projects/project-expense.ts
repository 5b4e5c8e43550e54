import { defineResource } from '../../registry/define';
import { boolean, date, money, reference, text } from '../../registry/fields';
import { lifecycles, withActions } from '../../registry/lifecycles';
import { currency } from '../field-sets';

/** A cost booked to a project other than time (BC Job Journal line of type G/L account or item, Odoo analytic lines from expenses). */
export const projectExpenses = defineResource({
  name: 'project_expense',
  path: 'project-expenses',
  module: 'projects',
  description:
    'A cost booked to a project other than time (travel, materials, a subcontractor): approved, then invoiced when billable.',
  numbering: { prefix: 'PEX' },
  fields: {
    project_id: reference('project', { required: true, filterable: true }),
    task_id: reference('task', { filterable: true }),
    employee_id: reference('employee', {
      filterable: true,
      description: 'Who incurred it, if an employee.',
    }),
    supplier_id: reference('supplier', {
      filterable: true,
      description: 'Who was paid, if a supplier.',
    }),
    supplier_invoice_id: reference('supplier_invoice', {
      filterable: true,
      description: "The supplier's invoice it comes from.",
    }),
    expense_category_id: reference('expense_category', { filterable: true }),
    expense_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-12' }),
    description: text({ required: true, maxLength: 500, example: 'Train Paris–Lyon, workshop' }),
    amount_cents: money({
      required: true,
      min: 0,
      filterable: true,
      description: 'Amount before tax, in minor units.',
      example: 12_400,
    }),
    tax_amount_cents: money({ min: 0, description: 'Deductible tax on it.', example: 1_240 }),
    currency: currency(),
    is_billable: boolean({
      required: true,
      filterable: true,
      description: 'Re-invoiced to the customer.',
      example: true,
    }),
    receipt_reference: text({
      maxLength: 100,
      fake: 'code',
      description: 'Number or file name of the receipt.',
    }),
    purchase_order_id: reference('purchase_order', {
      filterable: true,
      description: 'The order it was bought with.',
    }),
  },
  lifecycle: withActions(lifecycles.approvable(), {
    invoice: { from: ['approuve'], to: 'facture', description: 'Re-invoiced to the customer.' },
  }),
});
