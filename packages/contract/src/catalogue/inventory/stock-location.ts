import { defineResource } from '../../registry/define';
import { boolean, decimal, enumOf, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A place stock sits in, in a tree under its warehouse (Odoo stock.location, ERPNext Warehouse tree, BC bin). */
export const stockLocations = defineResource({
  name: 'stock_location',
  path: 'stock-locations',
  module: 'inventory',
  description:
    'A zone, aisle, shelf or bin of a warehouse (a tree), or a virtual location stock comes from or goes to (suppliers, customers, inventory loss, production).',
  fields: {
    code: code('LYON-1/STOCK/A-01', {
      maxLength: 100,
      description: 'Full path of the location, printed on labels and pick lists.',
    }),
    name: title('Aisle A, shelf 01', { maxLength: 100 }),
    warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'The warehouse it is in; empty for virtual locations.',
    }),
    parent_id: reference('stock_location', {
      filterable: true,
      description: 'The location it is part of (a shelf in an aisle).',
    }),
    usage: enumOf(
      ['view', 'internal', 'supplier', 'customer', 'inventory', 'production', 'transit'],
      {
        required: true,
        filterable: true,
        description:
          'internal: stock is kept here; view: only groups other locations; supplier, customer, inventory (losses and count differences), production and transit are virtual counterparts of moves.',
        example: 'internal',
      },
    ),
    is_scrap: boolean({
      required: true,
      filterable: true,
      description: 'Damaged or expired goods are moved here.',
      example: false,
    }),
    removal_strategy: enumOf(['fifo', 'lifo', 'fefo', 'closest'], {
      description: 'Which units leave first: first in, last in, first expiring, or nearest.',
      example: 'fifo',
    }),
    barcode: text({ maxLength: 64, filterable: true, fake: 'barcode', example: 'LOC-A-01' }),
    max_weight_kg: decimal({ min: 0, description: 'Load the location can hold.', example: '800' }),
  },
  lifecycle: lifecycles.archivable(),
});
