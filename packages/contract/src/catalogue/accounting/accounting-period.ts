import { defineResource } from '../../registry/define';
import { enumOf, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { period, title } from '../field-sets';

/** A month or quarter of a fiscal year, closed once its books are done (ERPNext Accounting Period, BC accounting period, Odoo lock dates). */
export const accountingPeriods = defineResource({
  name: 'accounting_period',
  path: 'accounting-periods',
  module: 'accounting',
  description:
    'A period of a fiscal year (a month, a quarter, or the closing adjustments); once closed, nothing more is posted in it.',
  fields: {
    fiscal_year_id: reference('fiscal_year', {
      required: true,
      filterable: true,
      description: 'The fiscal year the period falls in; its dates lie within the year.',
    }),
    name: title('Mars 2026', { maxLength: 50 }),
    period_type: enumOf(['month', 'quarter', 'adjustment'], {
      required: true,
      filterable: true,
      description: 'adjustment: the closing period of year-end entries (« période 13 »).',
      example: 'month',
    }),
    ...period(),
  },
  lifecycle: lifecycles.period(),
});
