import { defineResource } from '../../registry/define';
import { boolean, date, enumOf, lines, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { notes } from '../field-sets';

/** A physical count of the assets at a place (BC FA physical inventory, French « inventaire physique des immobilisations »). */
export const assetCounts = defineResource({
  name: 'asset_count',
  path: 'asset-counts',
  module: 'assets',
  description:
    'A check that the assets recorded at a place are there, and in what condition; validated once counted.',
  numbering: { prefix: 'AVC' },
  fields: {
    location_id: reference('asset_location', { required: true, filterable: true }),
    count_date: date({ required: true, filterable: true, sortable: true, example: '2026-12-18' }),
    counted_by_id: reference('employee', { filterable: true }),
    lines: lines(
      {
        asset_id: reference('asset', { required: true }),
        found: boolean({ required: true, example: true }),
        condition: enumOf(['good', 'worn', 'damaged', 'unusable'], { example: 'good' }),
        remark: text({ maxLength: 500 }),
      },
      { required: true, description: 'Each asset expected there: found or not, and its state.' },
    ),
    notes: notes(),
  },
  lifecycle: lifecycles.validatable(),
});
