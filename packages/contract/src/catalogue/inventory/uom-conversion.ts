import { defineResource } from '../../registry/define';
import { decimal, reference } from '../../registry/fields';

/** How many of a unit make one of another, for every product or one (ERPNext UOM Conversion Factor and Item UOMs, BC Item Unit of Measure). */
export const uomConversions = defineResource({
  name: 'uom_conversion',
  path: 'uom-conversions',
  module: 'inventory',
  description:
    'A conversion between two units: 1 of the first is `factor` of the second; for one product (a box of 12, a roll of 50 m) or for all.',
  fields: {
    product_id: reference('product', {
      filterable: true,
      description: 'The product the conversion is for; empty: every product.',
    }),
    from_unit_of_measure_id: reference('unit_of_measure', { required: true, filterable: true }),
    to_unit_of_measure_id: reference('unit_of_measure', { required: true, filterable: true }),
    factor: decimal({
      required: true,
      min: 0,
      description: 'How many `to` units one `from` unit is.',
      example: '12',
    }),
  },
});
