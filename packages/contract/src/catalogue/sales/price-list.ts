import { defineResource } from '../../registry/define';
import { boolean, date, reference } from '../../registry/fields';
import { code, notes, title } from '../field-sets';

/**
 * A sales price list (ERPNext Price List, Odoo product.pricelist, Business Central sales price
 * list): one currency, a validity, prepared as a draft, published, archived when replaced.
 */
export const priceLists = defineResource({
  name: 'price_list',
  path: 'price-lists',
  module: 'sales',
  description:
    'A list of sales prices in one currency (retail, wholesale, export…), valid for a period; customers and customer groups name the one they buy at.',
  fields: {
    code: code('WHOLESALE-EUR'),
    name: title('Wholesale 2026', { maxLength: 100 }),
    currency_id: reference('currency', {
      required: true,
      filterable: true,
      description: 'The currency of every price in the list.',
    }),
    prices_include_tax: boolean({
      required: true,
      filterable: true,
      description: 'True when prices are tax-inclusive (retail), false when before tax (B2B).',
      example: false,
    }),
    is_default: boolean({
      required: true,
      filterable: true,
      description: 'The list used for a customer whose group and record name none.',
      example: false,
    }),
    valid_from: date({ filterable: true, example: '2026-01-01' }),
    valid_until: date({
      filterable: true,
      description: 'Last day the list applies; empty while it has no end.',
      example: '2026-12-31',
    }),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    editable: ['brouillon', 'publie'],
    actions: {
      publish: {
        from: ['brouillon'],
        to: 'publie',
        description: 'Offered on quotes and orders from now on.',
      },
      archive: {
        from: ['publie'],
        to: 'archive',
        description: 'Replaced; kept for the documents that used it.',
      },
      restore: { from: ['archive'], to: 'publie', description: 'Offered again.' },
      cancel: { from: ['brouillon'], to: 'annule', description: 'Never published.' },
    },
  },
});
