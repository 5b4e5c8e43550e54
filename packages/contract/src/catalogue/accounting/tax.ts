import { defineResource } from '../../registry/define';
import { enumOf, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A tax the tenant collects or pays (ERPNext Item Tax Template, Odoo account.tax, BC VAT posting setup). */
export const taxes = defineResource({
  name: 'tax',
  path: 'taxes',
  module: 'accounting',
  description: 'A tax (VAT on sales, VAT on purchases, withholding…) and where it is posted.',
  fields: {
    code: code('TVA-C', { description: 'The code printed on documents and returns.' }),
    name: title('TVA collectée'),
    scope: enumOf(['sales', 'purchases', 'both'], {
      required: true,
      filterable: true,
      example: 'sales',
    }),
    tax_kind: enumOf(['vat', 'withholding', 'excise', 'other'], {
      required: true,
      filterable: true,
      example: 'vat',
    }),
    account_id: reference('account', {
      filterable: true,
      description: 'The account the tax amounts are posted to.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
