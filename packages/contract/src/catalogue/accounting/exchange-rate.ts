import { defineResource } from '../../registry/define';
import { date, decimal, enumOf, reference } from '../../registry/fields';

/** What one unit of a currency is worth in the company currency on a day (Odoo res.currency.rate). */
export const exchangeRates = defineResource({
  name: 'exchange_rate',
  path: 'exchange-rates',
  module: 'accounting',
  description: 'The rate of a currency against the company currency on a given day.',
  fields: {
    currency_id: reference('currency', { required: true, filterable: true }),
    rate_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-02' }),
    rate: decimal({
      required: true,
      min: 0,
      description: 'Company-currency units for one unit of the currency.',
      example: '0.8573',
    }),
    source: enumOf(['manual', 'ecb', 'bank'], {
      required: true,
      filterable: true,
      description: 'Where the rate comes from (ecb: the European Central Bank reference rate).',
      example: 'ecb',
    }),
  },
});
