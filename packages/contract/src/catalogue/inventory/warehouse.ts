import { defineResource } from '../../registry/define';
import { boolean, enumOf, reference, text, USER } from '../../registry/fields';
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
    warehouse_type: enumOf(['storage', 'transit', 'store', 'production', 'consignment'], {
      filterable: true,
      description:
        'storage: a stocking warehouse; transit: goods on the road; store: a shop; production: a plant; consignment: held by a third party.',
      example: 'storage',
    }),
    manager_id: reference(USER, { filterable: true, description: 'Who runs the warehouse.' }),
    stock_account_id: reference('account', {
      filterable: true,
      description: 'Where the value of its stock is posted (perpetual inventory).',
    }),
    ...addressFields(),
    active: boolean({ required: true, filterable: true, example: true }),
  },
});
