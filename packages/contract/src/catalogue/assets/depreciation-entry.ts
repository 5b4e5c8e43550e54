import { defineResource } from '../../registry/define';
import { date, money, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency } from '../field-sets';

/** One depreciation posted for an asset (ERPNext depreciation Journal Entry, Odoo depreciation move, BC FA ledger entry). */
export const depreciationEntries = defineResource({
  name: 'depreciation_entry',
  path: 'depreciation-entries',
  module: 'assets',
  description:
    'The depreciation of an asset for one date of its schedule, posted to the ledger (expense debited, accumulated depreciation credited).',
  numbering: { prefix: 'DEP' },
  fields: {
    asset_id: reference('asset', { required: true, filterable: true }),
    depreciation_schedule_id: reference('depreciation_schedule', {
      required: true,
      filterable: true,
    }),
    entry_date: date({ required: true, filterable: true, sortable: true, example: '2026-12-31' }),
    amount_cents: money({ required: true, min: 0, example: 76_358 }),
    accumulated_cents: money({
      required: true,
      min: 0,
      description: 'Accumulated depreciation after it.',
      example: 76_358,
    }),
    book_value_cents: money({
      required: true,
      min: 0,
      description: 'Net book value after it.',
      example: 173_542,
    }),
    currency: currency(),
    accounting_period_id: reference('accounting_period', { filterable: true }),
    journal_entry_id: reference('journal_entry', {
      filterable: true,
      description: 'The ledger entry it made.',
    }),
  },
  lifecycle: lifecycles.postable(),
});
