import { defineResource } from '../../registry/define';
import { date, decimal, integer, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency } from '../field-sets';

/** What a supplier charges for a product, from which quantity, and how fast it delivers (Odoo product.supplierinfo, ERPNext Item Supplier and buying Item Price, BC Purchase Price). */
export const supplierPrices = defineResource({
  name: 'supplier_price',
  path: 'supplier-prices',
  module: 'purchasing',
  description:
    "A supplier's price for a product from a minimum quantity, with its own code and lead time, valid for a period: what purchase orders are priced from.",
  fields: {
    supplier_id: reference('supplier', { required: true, filterable: true }),
    product_id: reference('product', { required: true, filterable: true }),
    variant_id: reference('product_variant', { filterable: true }),
    supplier_product_code: text({
      maxLength: 64,
      filterable: true,
      description: "The supplier's reference for the product.",
      example: 'BPD-88120',
    }),
    supplier_product_name: text({ maxLength: 200, fake: 'product_name' }),
    min_quantity: decimal({
      required: true,
      min: 0,
      description: 'The price applies from this quantity.',
      example: '10',
    }),
    unit_price_cents: money({
      required: true,
      min: 0,
      filterable: true,
      description: 'Price of one unit before tax, in minor units.',
      example: 7900,
    }),
    currency: currency(),
    unit_of_measure_id: reference('unit_of_measure', {
      description: 'Unit the price is for (the product’s purchase unit when empty).',
    }),
    lead_time_days: integer({ min: 0, max: 365, filterable: true, example: 7 }),
    valid_from: date({ filterable: true, example: '2026-01-01' }),
    valid_until: date({ filterable: true, example: '2026-12-31' }),
    priority: integer({
      min: 0,
      description: 'Lower comes first when several suppliers offer the product.',
      example: 1,
    }),
  },
  lifecycle: lifecycles.archivable(),
});
