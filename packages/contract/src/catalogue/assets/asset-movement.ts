import { defineResource } from '../../registry/define';
import { date, enumOf, lines, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { notes } from '../field-sets';

/** Assets moved between places or people (ERPNext Asset Movement, BC FA reclassification journal, Odoo equipment reassignment). */
export const assetMovements = defineResource({
  name: 'asset_movement',
  path: 'asset-movements',
  module: 'assets',
  description:
    'Assets moved to another place, handed to an employee or returned by one; takes effect once validated.',
  numbering: { prefix: 'AMV' },
  fields: {
    movement_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-09',
    }),
    purpose: enumOf(['transfer', 'issue', 'return', 'receipt'], {
      required: true,
      filterable: true,
      description:
        'transfer: to another place; issue: handed to an employee; return: given back; receipt: first arrival.',
      example: 'transfer',
    }),
    reason: text({ maxLength: 500, example: 'Déménagement du service comptable au 4e étage' }),
    lines: lines(
      {
        asset_id: reference('asset', { required: true }),
        from_location_id: reference('asset_location'),
        to_location_id: reference('asset_location'),
        from_custodian_id: reference('employee'),
        to_custodian_id: reference('employee'),
      },
      { required: true, description: 'The assets moved, from where and whom to where and whom.' },
    ),
    notes: notes(),
  },
  lifecycle: lifecycles.validatable(),
});
