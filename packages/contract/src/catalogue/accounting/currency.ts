import { defineResource } from '../../registry/define';
import { integer, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** A currency the tenant trades in (ERPNext Currency, Odoo res.currency, BC currencies). */
export const currencies = defineResource({
  name: 'currency',
  path: 'currencies',
  module: 'accounting',
  description: 'A currency the tenant trades in; amounts in it are kept in its minor units.',
  fields: {
    code: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 3,
      description: 'ISO 4217 code.',
      example: 'EUR',
    }),
    name: title('Euro', { maxLength: 100 }),
    symbol: text({ maxLength: 8, example: '€' }),
    minor_units: integer({
      required: true,
      min: 0,
      max: 4,
      description: 'Digits after the decimal point (2 for EUR, 0 for JPY).',
      example: 2,
    }),
  },
  lifecycle: lifecycles.archivable(),
});
