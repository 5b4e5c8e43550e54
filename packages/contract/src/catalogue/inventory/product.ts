import { defineResource } from '../../registry/define';
import { boolean, decimal, enumOf, integer, money, reference, text } from '../../registry/fields';

/** Something bought, stocked or sold (ERPNext Item, Odoo product.product). */
export const products = defineResource({
  name: 'product',
  path: 'products',
  module: 'inventory',
  description: 'A good or a service the tenant buys, stocks or sells.',
  fields: {
    sku: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 64,
      fake: 'sku',
      description: 'Stock keeping unit: the code people and systems use for the product.',
      example: 'CHAIR-BLK-01',
    }),
    name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 200,
      fake: 'product_name',
      example: 'Office chair, black',
    }),
    description: text({ maxLength: 5000 }),
    product_type: enumOf(['stockable', 'consumable', 'service'], {
      required: true,
      filterable: true,
      description: 'stockable: stock is tracked; consumable: bought but not tracked; service.',
      example: 'stockable',
    }),
    category: text({ maxLength: 100, filterable: true, example: 'Furniture' }),
    unit_of_measure: text({
      required: true,
      maxLength: 32,
      description: 'Unit the product is counted in.',
      example: 'Unit',
    }),
    sale_price_cents: money({
      min: 0,
      filterable: true,
      description: 'List price before tax.',
      example: 14900,
    }),
    cost_price_cents: money({ min: 0, description: 'Purchase or production cost.', example: 8200 }),
    tax_rate: decimal({
      min: 0,
      max: 100,
      description: 'Default tax rate in percent.',
      example: '20',
    }),
    barcode: text({
      maxLength: 64,
      filterable: true,
      description: 'EAN-13, UPC…',
      example: '3057640257681',
    }),
    weight_kg: decimal({ min: 0, example: '12.5' }),
    reorder_level: decimal({
      min: 0,
      description: 'Stock level under which the product should be reordered.',
    }),
    category_id: reference('product_category', {
      filterable: true,
      description:
        'Its category (supersedes the free-text `category`): default accounts, reporting.',
    }),
    unit_of_measure_id: reference('unit_of_measure', {
      filterable: true,
      description: 'Unit the product is stocked in (supersedes the free-text `unit_of_measure`).',
    }),
    purchase_unit_of_measure_id: reference('unit_of_measure', {
      filterable: true,
      description: 'Unit suppliers sell it in, when it differs (a box of 12).',
    }),
    tracking: enumOf(['none', 'lot', 'serial'], {
      filterable: true,
      description: 'Whether each move names a lot, or each unit a serial number.',
      example: 'lot',
    }),
    shelf_life_days: integer({
      min: 0,
      description: 'Days from manufacture to expiry, to date new lots.',
      example: 365,
    }),
    valuation_method: enumOf(['fifo', 'moving_average', 'standard'], {
      filterable: true,
      description: 'How its stock is valued.',
      example: 'fifo',
    }),
    revenue_account_id: reference('account', {
      description: "Where its sales post; the accounting settings' `revenue` account when empty.",
    }),
    expense_account_id: reference('account', {
      description:
        "Where its purchases post; the accounting settings' `expense` account when empty.",
    }),
    active: boolean({
      required: true,
      filterable: true,
      description: 'False archives the product: kept for history, not offered for new documents.',
      example: true,
    }),
  },
});
