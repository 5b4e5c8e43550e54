import { defineResource } from '../../registry/define';
import { lifecycles } from '../../registry/lifecycles';
import { period, title } from '../field-sets';

/** The accounting year entries are posted in (ERPNext Fiscal Year, Odoo account.fiscal.year). */
export const fiscalYears = defineResource({
  name: 'fiscal_year',
  path: 'fiscal-years',
  module: 'accounting',
  description: 'An accounting year; once closed, nothing more is posted in it.',
  fields: {
    name: title('FY 2026', { maxLength: 50 }),
    ...period(),
  },
  lifecycle: lifecycles.period(),
});
