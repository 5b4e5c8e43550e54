import { defineResource } from '../../registry/define';
import { decimal, lines, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** A product in one combination of attribute values (BC Item Variant, Odoo product.product, ERPNext Item variant_of). */
export const productVariants = defineResource({
  name: 'product_variant',
  path: 'product-variants',
  module: 'inventory',
  description:
    'A product in one combination of attribute values (the black chair in size L), with its own code, barcode and price supplement.',
  fields: {
    product_id: reference('product', {
      required: true,
      filterable: true,
      description: 'The product (template) it is a variant of.',
    }),
    sku: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 64,
      fake: 'sku',
      description: 'Its own stock keeping unit.',
      example: 'CHAIR-BLK-L',
    }),
    name: title('Office chair, black, L', { fake: 'product_name' }),
    barcode: text({ maxLength: 64, filterable: true, fake: 'barcode', example: '3057640257698' }),
    attribute_values: lines(
      {
        attribute_id: reference('product_attribute', { required: true }),
        attribute_value_id: reference('product_attribute_value', { required: true }),
      },
      { required: true, maxItems: 20, description: 'One value per attribute.' },
    ),
    price_extra_cents: money({
      description: 'Added to the product’s sale price for this variant (negative for less).',
      example: 1500,
    }),
    cost_price_cents: money({ min: 0, description: 'Cost when it differs from the product’s.' }),
    weight_kg: decimal({ min: 0, example: '13.1' }),
  },
  lifecycle: lifecycles.archivable(),
});
