import { defineResource } from '../../registry/define';
import { decimal, enumOf } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A unit quantities are counted in (ERPNext UOM, Odoo uom.uom, BC unit of measure). */
export const unitsOfMeasure = defineResource({
  name: 'unit_of_measure',
  path: 'units-of-measure',
  module: 'inventory',
  description: 'A unit quantities are counted in, and its ratio to its category’s reference unit.',
  fields: {
    code: code('KG', {
      maxLength: 16,
      description: 'UN/ECE Recommendation 20 code where there is one.',
    }),
    name: title('Kilogram', { maxLength: 100 }),
    category: enumOf(['unit', 'weight', 'length', 'area', 'volume', 'time', 'energy'], {
      required: true,
      filterable: true,
      example: 'weight',
    }),
    ratio: decimal({
      required: true,
      min: 0,
      description:
        'How many reference units of the category one of this unit is (1 for the reference).',
      example: '1',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
