import { defineResource } from '../../registry/define';
import { date, decimal, money, reference } from '../../registry/fields';
import { percent } from '../field-sets';

/**
 * One product's price in a price list (ERPNext Item Price, Odoo product.pricelist.item,
 * Business Central price list line), with quantity breaks and its own validity.
 */
export const priceListItems = defineResource({
  name: 'price_list_item',
  path: 'price-list-items',
  module: 'sales',
  description:
    'The price of one product in a price list, from a minimum quantity on (quantity breaks), for a period.',
  fields: {
    price_list_id: reference('price_list', { required: true, filterable: true }),
    product_id: reference('product', { required: true, filterable: true }),
    currency_id: reference('currency', {
      required: true,
      filterable: true,
      description: "The price list's currency, repeated so prices can be filtered by currency.",
    }),
    unit_price_cents: money({
      required: true,
      min: 0,
      filterable: true,
      description: 'Price of one unit, in minor units of the currency.',
      example: 12900,
    }),
    min_quantity: decimal({
      required: true,
      min: 0,
      filterable: true,
      description: 'The price applies from this quantity on (1 for the base price).',
      example: '10',
    }),
    unit_of_measure_id: reference('unit_of_measure', {
      filterable: true,
      description: "The unit priced; empty for the product's own unit.",
    }),
    discount_percent: percent({
      description: 'Discount shown on the line, off the unit price.',
      example: '5',
    }),
    valid_from: date({ filterable: true, example: '2026-01-01' }),
    valid_until: date({ filterable: true, example: '2026-06-30' }),
    variant_id: reference('product_variant', {
      filterable: true,
      description: 'A price for one variant of the product only.',
    }),
  },
});
