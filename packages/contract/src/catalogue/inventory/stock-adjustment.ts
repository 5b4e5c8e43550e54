import { defineResource } from '../../registry/define';
import { date, decimal, enumOf, lines, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { notes } from '../field-sets';

/** Stock added or written off outside any order (ERPNext Stock Entry Material Receipt/Issue, Odoo scrap and quantity updates, BC item journal adjustments). */
export const stockAdjustments = defineResource({
  name: 'stock_adjustment',
  path: 'stock-adjustments',
  module: 'inventory',
  description:
    'Quantities added to or written off the stock (count differences, damage, loss, expiry), with the account the value goes to.',
  numbering: { prefix: 'ADJ' },
  fields: {
    warehouse_id: reference('warehouse', { required: true, filterable: true }),
    adjustment_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-06-30',
    }),
    reason: enumOf(
      ['count_difference', 'damage', 'loss', 'theft', 'expiry', 'found', 'quality', 'other'],
      { required: true, filterable: true, example: 'damage' },
    ),
    stock_count_id: reference('stock_count', {
      filterable: true,
      description: 'The count whose differences this books.',
    }),
    account_id: reference('account', {
      filterable: true,
      description: 'Where the value written off or found is posted.',
    }),
    cost_center_id: reference('cost_center', { filterable: true }),
    lines: lines(
      {
        product_id: reference('product', { required: true }),
        variant_id: reference('product_variant'),
        location_id: reference('stock_location'),
        lot_id: reference('lot'),
        quantity: decimal({
          required: true,
          description: 'Added when positive, written off when negative.',
          example: '-2',
        }),
        unit_of_measure: text({ maxLength: 32, example: 'Unit' }),
        unit_cost_cents: money({ min: 0, example: 8200 }),
      },
      { required: true, description: 'Products and the quantity added or removed.' },
    ),
    notes: notes(),
    journal_entry_id: reference('journal_entry', {
      filterable: true,
      description: 'The entry that posted the stock value change.',
    }),
  },
  lifecycle: lifecycles.validatable(),
  stock: [
    {
      action: 'validate',
      date: 'adjustment_date',
      reverse: 'cancel',
      lines: 'lines',
      from: 'outside',
      to: { warehouse: 'warehouse_id', lineLocation: 'location_id' },
      signed: true,
      counterpart: { setting: 'expense', field: 'account_id' },
    },
  ],
});
