import { defineResource } from '../../registry/define';
import { date, reference } from '../../registry/fields';
import { percent, title } from '../field-sets';

/** A rate of a tax and the period it applies (rates change: 19.6 % → 20 %). */
export const taxRates = defineResource({
  name: 'tax_rate',
  path: 'tax-rates',
  module: 'accounting',
  description: 'One rate of a tax, valid from a date (and until one, once replaced).',
  fields: {
    tax_id: reference('tax', { required: true, filterable: true }),
    name: title('Taux normal 20 %', { maxLength: 100 }),
    rate: percent({ required: true, description: 'Rate in percent.', example: '20' }),
    valid_from: date({ required: true, filterable: true, sortable: true, example: '2014-01-01' }),
    valid_until: date({ filterable: true }),
  },
});
