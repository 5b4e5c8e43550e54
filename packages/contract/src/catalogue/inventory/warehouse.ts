import { defineResource } from '../../registry/define';
import { boolean, text } from '../../registry/fields';
import { addressFields } from '../field-sets';

/** A place stock is kept (ERPNext Warehouse, Odoo stock.warehouse). */
export const warehouses = defineResource({
  name: 'warehouse',
  path: 'warehouses',
  module: 'inventory',
  description: 'A place where stock is kept.',
  fields: {
    code: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 32,
      description: 'Short code printed on documents.',
      example: 'LYON-1',
    }),
    name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 200,
      example: 'Lyon main',
    }),
    ...addressFields(),
    active: boolean({ required: true, filterable: true, example: true }),
  },
});
