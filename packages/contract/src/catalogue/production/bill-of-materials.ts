import { defineResource } from '../../registry/define';
import {
  boolean,
  date,
  decimal,
  enumOf,
  integer,
  lines,
  reference,
  text,
} from '../../registry/fields';
import { notes, percent, stockLines } from '../field-sets';
import { certifiable } from './certifiable';

/** What a product is made of (ERPNext BOM, Odoo mrp.bom, BC Production BOM). */
export const billsOfMaterials = defineResource({
  name: 'bill_of_materials',
  path: 'bills-of-materials',
  module: 'production',
  description:
    'The components and quantities that make a quantity of a product, with the scrap expected on each, in revisions.',
  numbering: { prefix: 'BOM' },
  fields: {
    product_id: reference('product', {
      required: true,
      filterable: true,
      description: 'The product made.',
    }),
    revision: text({
      required: true,
      filterable: true,
      maxLength: 20,
      description: 'Revision label; a certified BOM is changed through a new revision.',
      example: '3',
    }),
    bom_type: enumOf(['manufacture', 'kit', 'subcontract'], {
      required: true,
      filterable: true,
      description:
        'manufacture: made in-house; kit: components delivered together, never made (Odoo phantom); subcontract: made by a supplier from supplied components.',
      example: 'manufacture',
    }),
    quantity: decimal({
      required: true,
      min: 0,
      description: 'Quantity of the product the component quantities make.',
      example: '1',
    }),
    unit_of_measure_id: reference('unit_of_measure', {
      filterable: true,
      description: 'Unit of `quantity`.',
    }),
    routing_id: reference('routing', {
      filterable: true,
      description: 'How it is made; empty for a kit.',
    }),
    is_default: boolean({
      required: true,
      filterable: true,
      description: 'The BOM used for the product when an order names none.',
      example: true,
    }),
    valid_from: date({ filterable: true, example: '2026-01-01' }),
    valid_until: date({ filterable: true }),
    components: stockLines(
      {
        scrap_percent: percent({
          description: 'Share of the component expected to be lost; consumption is raised by it.',
          example: '2.5',
        }),
        operation_sequence: integer({
          min: 0,
          description: 'The routing step that consumes it (its `sequence`).',
          example: 20,
        }),
      },
      { description: 'The components: other products and their quantities.' },
    ),
    byproducts: lines(
      {
        product_id: reference('product', { required: true }),
        quantity: decimal({ required: true, min: 0, example: '0.2' }),
        unit_of_measure: text({ maxLength: 32, example: 'kg' }),
        cost_share: percent({
          description: 'Share of the production cost it carries.',
          example: '5',
        }),
      },
      { maxItems: 50, description: 'Other products the process yields (offcuts, by-products).' },
    ),
    notes: notes(),
  },
  lifecycle: certifiable(),
});
