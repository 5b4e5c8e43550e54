import { defineResource } from '../../registry/define';
import { boolean, integer } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, notes, percent, title } from '../field-sets';

/** When an invoice falls due, and the discount for paying early (ERPNext Payment Terms Template, Odoo account.payment.term). */
export const paymentTerms = defineResource({
  name: 'payment_term',
  path: 'payment-terms',
  module: 'accounting',
  description:
    'How long after the invoice date payment is due, with an optional early-payment discount.',
  fields: {
    code: code('NET30'),
    name: title('30 days net', { maxLength: 100 }),
    net_days: integer({
      required: true,
      min: 0,
      max: 365,
      filterable: true,
      description: 'Days after the invoice date.',
      example: 30,
    }),
    end_of_month: boolean({
      required: true,
      description: 'The due date moves to the end of that month (« 30 jours fin de mois »).',
      example: false,
    }),
    discount_percent: percent({ description: 'Early-payment discount.', example: '2' }),
    discount_days: integer({
      min: 0,
      max: 365,
      description: 'Paid within this many days earns the discount.',
      example: 10,
    }),
    notes: notes(),
  },
  lifecycle: lifecycles.archivable(),
});
