import { defineResource } from '../../registry/define';
import { date, lines, money, reference } from '../../registry/fields';
import { lifecycles, withActions } from '../../registry/lifecycles';
import { currency, notes, percent, period } from '../field-sets';

/**
 * A salesperson's commission statement for a period (ERPNext commission on Sales Invoice and
 * Sales Partner commission, Odoo sale_commission plans and achievements), approved then paid.
 */
export const salesCommissions = defineResource({
  name: 'sales_commission',
  path: 'sales-commissions',
  module: 'sales',
  description:
    "A salesperson's commission for a period, one line per order or invoice counted; approved by the sales manager, then paid (usually with the payroll).",
  numbering: { prefix: 'COM' },
  fields: {
    salesperson_id: reference('salesperson', { required: true, filterable: true }),
    ...period(),
    currency: currency(),
    base_amount_cents: money({
      required: true,
      min: 0,
      filterable: true,
      description: 'Sum of the lines’ amounts before tax.',
      example: 3_280_000,
    }),
    commission_cents: money({
      required: true,
      min: 0,
      filterable: true,
      description: 'Sum of the lines’ commissions: what the salesperson is owed.',
      example: 164_000,
    }),
    paid_date: date({ filterable: true, description: 'Day it was paid.', example: '2026-04-30' }),
    lines: lines(
      {
        sales_order_id: reference('sales_order', { description: 'The order counted.' }),
        invoice_id: reference('invoice', { description: 'The invoice counted, once invoiced.' }),
        base_amount_cents: money({
          required: true,
          description: 'Amount before tax the commission is computed on (negative for a return).',
          example: 1_640_000,
        }),
        commission_rate: percent({ required: true, example: '5' }),
        commission_cents: money({
          required: true,
          description: 'base_amount_cents × commission_rate / 100, rounded.',
          example: 82_000,
        }),
      },
      { required: true, description: 'The orders and invoices counted.' },
    ),
    notes: notes(),
  },
  lifecycle: withActions(lifecycles.approvable(), {
    pay: { from: ['approuve'], to: 'paye', description: 'Paid to the salesperson.' },
  }),
});
