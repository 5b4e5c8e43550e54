import { defineResource } from '../../registry/define';
import { boolean, date, decimal, lines, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes } from '../field-sets';

/** A repair of an asset with its cost and parts (ERPNext Asset Repair, BC maintenance ledger, Odoo maintenance with costs). */
export const assetRepairs = defineResource({
  name: 'asset_repair',
  path: 'asset-repairs',
  module: 'assets',
  description:
    "A repair of an asset: the failure, the parts and the cost, in-house or by a repairer; a capitalised repair adds to the asset's value.",
  numbering: { prefix: 'ARP' },
  fields: {
    asset_id: reference('asset', { required: true, filterable: true }),
    maintenance_request_id: reference('maintenance_request', { filterable: true }),
    failure_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-12' }),
    completion_date: date({ filterable: true, example: '2026-03-16' }),
    failure_description: text({
      required: true,
      maxLength: 2000,
      fake: 'sentence',
      example: 'Joint du vérin principal percé',
    }),
    actions_performed: text({ maxLength: 5000, fake: 'sentence' }),
    supplier_id: reference('supplier', {
      filterable: true,
      description: 'The repairer, when not done in-house.',
    }),
    supplier_invoice_id: reference('supplier_invoice', { filterable: true }),
    repair_cost_cents: money({
      required: true,
      min: 0,
      description: 'Labour and parts, before tax.',
      example: 38_000,
    }),
    currency: currency(),
    capitalized: boolean({
      required: true,
      description:
        "The cost adds to the asset's value (it extends its life) instead of an expense.",
      example: false,
    }),
    downtime_hours: decimal({ min: 0, example: '26' }),
    parts: lines(
      {
        product_id: reference('product'),
        description: text({ required: true, maxLength: 255 }),
        quantity: decimal({ required: true, min: 0, example: '1' }),
        unit_cost_cents: money({ required: true, min: 0, example: 12_500 }),
      },
      { maxItems: 100, description: 'Spare parts used.' },
    ),
    notes: notes(),
  },
  lifecycle: lifecycles.schedulable(),
});
