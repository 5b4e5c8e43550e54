import { defineResource } from '../../registry/define';
import { date, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { addressFields } from '../field-sets';

/** A product sold to a customer and serviced there (BC Service Item, ERPNext Serial No with warranty, Odoo stock.lot with warranty). */
export const serviceItems = defineResource({
  name: 'service_item',
  path: 'service-items',
  module: 'support',
  description:
    'One unit of a product at a customer’s, by serial number: where it is installed and until when its warranty runs.',
  fields: {
    product_id: reference('product', { required: true, filterable: true }),
    serial_number: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 64,
      fake: 'serial_number',
      example: 'SN-24-008812',
    }),
    customer_id: reference('customer', { required: true, filterable: true }),
    delivery_id: reference('delivery', {
      filterable: true,
      description: 'The delivery it was shipped with.',
    }),
    installation_date: date({ filterable: true, example: '2026-01-20' }),
    warranty_start_date: date({ filterable: true, example: '2026-01-20' }),
    warranty_end_date: date({
      filterable: true,
      description: 'Last day repairs are free under the warranty.',
      example: '2028-01-19',
    }),
    ...addressFields('location'),
    description: text({ maxLength: 2000 }),
    serial_number_id: reference('serial_number', {
      filterable: true,
      description: 'The serial number in stock records.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
