import { defineResource } from '../../registry/define';
import { date, decimal, enumOf, lines, money, reference, text, USER } from '../../registry/fields';
import { notes } from '../field-sets';

/** A physical inventory: quantities counted against those on record (ERPNext Stock Reconciliation, Odoo inventory adjustment, BC Physical Inventory Order). */
export const stockCounts = defineResource({
  name: 'stock_count',
  path: 'stock-counts',
  module: 'inventory',
  description:
    'A physical inventory of a warehouse or a location: for each product, the quantity expected and the quantity counted; the differences are booked by a stock adjustment that names the count.',
  numbering: { prefix: 'CNT' },
  fields: {
    warehouse_id: reference('warehouse', { required: true, filterable: true }),
    location_id: reference('stock_location', {
      filterable: true,
      description: 'Only this location (and those under it); empty: the whole warehouse.',
    }),
    count_date: date({ required: true, filterable: true, sortable: true, example: '2026-06-30' }),
    count_type: enumOf(['full', 'cycle', 'spot'], {
      required: true,
      filterable: true,
      description: 'full: everything (year end); cycle: a rotating share; spot: a check.',
      example: 'cycle',
    }),
    responsible_id: reference(USER, { filterable: true, description: 'Who leads the count.' }),
    lines: lines(
      {
        product_id: reference('product', { required: true }),
        variant_id: reference('product_variant'),
        location_id: reference('stock_location'),
        lot_id: reference('lot'),
        expected_quantity: decimal({
          required: true,
          min: 0,
          description: 'On record when the count started.',
          example: '40',
        }),
        counted_quantity: decimal({
          min: 0,
          description: 'Found on the shelf; empty until counted.',
          example: '38',
        }),
        unit_of_measure: text({ maxLength: 32, example: 'Unit' }),
        unit_cost_cents: money({ min: 0, description: 'Values the difference.' }),
      },
      { required: true, description: 'Products counted, expected against counted.' },
    ),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    editable: ['brouillon', 'en_cours'],
    actions: {
      start: { from: ['brouillon'], to: 'en_cours', description: 'Counting has begun.' },
      validate: {
        from: ['en_cours'],
        to: 'valide',
        description: 'Counting is finished and checked; its differences can be booked.',
      },
      cancel: { from: ['brouillon', 'en_cours'], to: 'annule', description: 'Abandoned.' },
    },
  },
});
