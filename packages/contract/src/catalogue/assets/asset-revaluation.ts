import { defineResource } from '../../registry/define';
import { date, enumOf, money, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes } from '../field-sets';

/** A change of an asset's book value outside depreciation (ERPNext Asset Value Adjustment, Odoo asset re-evaluate, BC FA write-down / appreciation). */
export const assetRevaluations = defineResource({
  name: 'asset_revaluation',
  path: 'asset-revaluations',
  module: 'assets',
  description:
    'A new book value for an asset: an impairment (write-down) or a revaluation upward; the remaining depreciation follows the new value.',
  numbering: { prefix: 'ARV' },
  fields: {
    asset_id: reference('asset', { required: true, filterable: true }),
    revaluation_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-12-31',
    }),
    revaluation_type: enumOf(['impairment', 'revaluation'], {
      required: true,
      filterable: true,
      example: 'impairment',
    }),
    previous_value_cents: money({
      required: true,
      min: 0,
      description: 'Net book value before.',
      example: 173_542,
    }),
    new_value_cents: money({
      required: true,
      min: 0,
      description: 'Net book value after.',
      example: 120_000,
    }),
    adjustment_cents: money({
      required: true,
      filterable: true,
      description: 'New value minus previous value: negative for an impairment.',
      example: -53_542,
    }),
    currency: currency(),
    journal_entry_id: reference('journal_entry', { filterable: true }),
    notes: notes(),
  },
  lifecycle: lifecycles.postable(),
});
