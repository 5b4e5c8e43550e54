import { defineResource } from '../../registry/define';
import { boolean, integer, money, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, percent, title } from '../field-sets';

/** A step of the dunning process (ERPNext Dunning Type, Odoo follow-up level, BC reminder level). */
export const dunningLevels = defineResource({
  name: 'dunning_level',
  path: 'dunning-levels',
  module: 'accounting',
  description:
    'A level of payment reminder: how many days after the due date it is sent, the fee and interest it adds, and its letter.',
  fields: {
    code: code('RELANCE-1'),
    name: title('Première relance', { maxLength: 100 }),
    level: integer({
      required: true,
      filterable: true,
      sortable: true,
      min: 1,
      max: 9,
      description: 'Order of the step: 1 first, then 2…',
      example: 1,
    }),
    days_after_due: integer({
      required: true,
      min: 0,
      max: 365,
      description: 'Days past the due date when this level is reached.',
      example: 15,
    }),
    fee_cents: money({
      min: 0,
      description: 'Fixed fee added (France: the 40 € recovery indemnity).',
      example: 4000,
    }),
    interest_rate: percent({
      description: 'Yearly late-payment interest rate charged on the amount due.',
      example: '12.15',
    }),
    stops_deliveries: boolean({
      required: true,
      description: 'At this level the customer gets no more deliveries until they pay.',
      example: false,
    }),
    letter_text: text({
      maxLength: 5000,
      description: 'The text of the reminder letter or e-mail.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
