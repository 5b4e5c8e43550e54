import { defineResource } from '../../registry/define';
import { date, enumOf, reference, text } from '../../registry/fields';
import { notes } from '../field-sets';

/** One unit of a serial-tracked product, where it is and its warranty (ERPNext Serial No, Odoo stock.lot of a serial-tracked product, BC serial no. information). */
export const serialNumbers = defineResource({
  name: 'serial_number',
  path: 'serial-numbers',
  module: 'inventory',
  description: 'One unit of a serial-tracked product: where it is, how it came in and went out.',
  fields: {
    serial_number: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 100,
      fake: 'serial_number',
      example: 'SN4410278',
    }),
    product_id: reference('product', { required: true, filterable: true }),
    lot_id: reference('lot', { filterable: true, description: 'The lot it was made in, if any.' }),
    availability: enumOf(
      ['in_stock', 'reserved', 'delivered', 'consumed', 'in_repair', 'scrapped'],
      {
        required: true,
        filterable: true,
        description: 'Where the unit stands (updated by the moves that carry it).',
        example: 'in_stock',
      },
    ),
    warehouse_id: reference('warehouse', { filterable: true, description: 'Where it is now.' }),
    location_id: reference('stock_location', { filterable: true }),
    supplier_id: reference('supplier', { filterable: true }),
    goods_receipt_id: reference('goods_receipt', {
      filterable: true,
      description: 'The receipt it arrived on.',
    }),
    delivery_id: reference('delivery', {
      filterable: true,
      description: 'The delivery it left on.',
    }),
    purchase_date: date({ filterable: true, example: '2026-03-16' }),
    warranty_expiry_date: date({ filterable: true, example: '2028-03-16' }),
    notes: notes(),
  },
});
