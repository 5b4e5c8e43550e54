import { defineResource } from '../../registry/define';
import { date, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, notes } from '../field-sets';

/** A batch of a product made or received together, with its dates (ERPNext Batch, Odoo stock.lot, BC lot no. information). */
export const lots = defineResource({
  name: 'lot',
  path: 'lots',
  module: 'inventory',
  description:
    'A lot (batch) of a product, traced from receipt to delivery, with its manufacturing and expiry dates.',
  fields: {
    lot_number: code('L2611-0042', {
      maxLength: 64,
      description: 'Lot number printed on the labels.',
    }),
    product_id: reference('product', { required: true, filterable: true }),
    supplier_id: reference('supplier', {
      filterable: true,
      description: 'Who supplied the lot, for bought goods.',
    }),
    supplier_lot_number: text({
      maxLength: 64,
      filterable: true,
      description: "The supplier's own lot number.",
      example: 'B-774120',
    }),
    manufacturing_date: date({ filterable: true, example: '2026-02-10' }),
    expiry_date: date({
      filterable: true,
      description: 'Must not be used or sold after this day.',
      example: '2027-02-10',
    }),
    best_before_date: date({
      filterable: true,
      description: 'Quality may decline after this day.',
      example: '2026-12-10',
    }),
    notes: notes(),
  },
  lifecycle: lifecycles.archivable(),
});
