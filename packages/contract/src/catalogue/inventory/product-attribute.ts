import { defineResource } from '../../registry/define';
import { enumOf, integer } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A way products vary: colour, size… (ERPNext Item Attribute, Odoo product.attribute, BC item variant dimension). */
export const productAttributes = defineResource({
  name: 'product_attribute',
  path: 'product-attributes',
  module: 'inventory',
  description: 'A dimension products come in (colour, size, material), whose values make variants.',
  fields: {
    code: code('COLOUR'),
    name: title('Colour', { maxLength: 100 }),
    display_type: enumOf(['select', 'radio', 'pills', 'color'], {
      required: true,
      description: 'How the values are offered on order forms and in the shop.',
      example: 'color',
    }),
    variant_creation: enumOf(['always', 'dynamic', 'never'], {
      required: true,
      filterable: true,
      description:
        'always: every combination is a variant; dynamic: a variant is made when first ordered; never: the value is noted on lines only.',
      example: 'always',
    }),
    sequence: integer({
      min: 0,
      description: 'Order in which attributes are listed.',
      example: 10,
    }),
  },
  lifecycle: lifecycles.archivable(),
});
