import { defineResource } from '../../registry/define';
import { integer, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** One value of an attribute: black, XL… (ERPNext Item Attribute Value, Odoo product.attribute.value). */
export const productAttributeValues = defineResource({
  name: 'product_attribute_value',
  path: 'product-attribute-values',
  module: 'inventory',
  description: 'A value an attribute can take (black for colour, XL for size).',
  fields: {
    attribute_id: reference('product_attribute', { required: true, filterable: true }),
    name: title('Black', { maxLength: 100 }),
    abbreviation: text({
      maxLength: 16,
      filterable: true,
      description: 'Appended to the product code to make the variant code.',
      example: 'BLK',
    }),
    html_color: text({
      maxLength: 7,
      description: 'Swatch colour for colour attributes.',
      example: '#1d1d1b',
    }),
    sequence: integer({ min: 0, example: 10 }),
  },
  lifecycle: lifecycles.archivable(),
});
