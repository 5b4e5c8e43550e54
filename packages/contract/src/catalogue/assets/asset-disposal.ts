import { defineResource } from '../../registry/define';
import { date, enumOf, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes } from '../field-sets';

/** An asset sold, scrapped or lost (ERPNext asset sale and scrapping, Odoo asset sell/dispose, BC FA disposal). */
export const assetDisposals = defineResource({
  name: 'asset_disposal',
  path: 'asset-disposals',
  module: 'assets',
  description:
    'The end of an asset: sold (with its proceeds), scrapped, donated or lost; posting it records the gain or loss against its book value.',
  numbering: { prefix: 'ADS' },
  fields: {
    asset_id: reference('asset', { required: true, filterable: true }),
    disposal_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-06-30',
    }),
    disposal_type: enumOf(['sale', 'scrap', 'donation', 'loss'], {
      required: true,
      filterable: true,
      example: 'sale',
    }),
    proceeds_cents: money({
      required: true,
      min: 0,
      description: 'Sale price before tax; 0 when scrapped, donated or lost.',
      example: 60_000,
    }),
    book_value_cents: money({
      required: true,
      min: 0,
      description: 'Net book value on the disposal date.',
      example: 52_064,
    }),
    gain_loss_cents: money({
      required: true,
      filterable: true,
      description: 'Proceeds minus book value: positive a gain, negative a loss.',
      example: 7_936,
    }),
    currency: currency(),
    customer_id: reference('customer', { filterable: true, description: 'The buyer.' }),
    invoice_id: reference('invoice', { filterable: true, description: 'The sale invoice.' }),
    journal_entry_id: reference('journal_entry', { filterable: true }),
    reason: text({ maxLength: 500 }),
    notes: notes(),
  },
  lifecycle: lifecycles.postable(),
});
