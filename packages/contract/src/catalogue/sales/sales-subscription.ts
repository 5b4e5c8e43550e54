import { defineResource } from '../../registry/define';
import { boolean, date, enumOf, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, customerReference, notes, pricedLines } from '../field-sets';

/**
 * Recurring sales invoiced every period (Odoo sale subscription, ERPNext Subscription, Business
 * Central subscription billing contract).
 */
export const salesSubscriptions = defineResource({
  name: 'sales_subscription',
  path: 'sales-subscriptions',
  module: 'sales',
  description:
    'A subscription sold to a customer: lines invoiced every billing period until it ends or is terminated; its totals are the amount of one period.',
  numbering: { prefix: 'SUB' },
  fields: {
    customer_id: customerReference(),
    customer_reference: text({ maxLength: 100, filterable: true }),
    salesperson_id: reference('salesperson', { filterable: true }),
    start_date: date({ required: true, filterable: true, sortable: true, example: '2026-01-01' }),
    end_date: date({
      filterable: true,
      description: 'Last day; empty while it renews.',
      example: '2026-12-31',
    }),
    billing_period: enumOf(['monthly', 'quarterly', 'half_yearly', 'yearly'], {
      required: true,
      filterable: true,
      example: 'monthly',
    }),
    next_invoice_date: date({
      filterable: true,
      description: 'Day the next period is invoiced.',
      example: '2026-04-01',
    }),
    auto_renew: boolean({
      required: true,
      filterable: true,
      description: 'Renewed for the same duration at its end unless terminated.',
      example: true,
    }),
    price_list_id: reference('price_list', { filterable: true }),
    payment_term_id: reference('payment_term', { filterable: true }),
    currency: currency(),
    lines: pricedLines(
      {},
      { description: 'What is invoiced each period; the totals are per period.' },
    ),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: lifecycles.agreement(),
});
