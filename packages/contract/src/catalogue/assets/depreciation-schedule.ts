import { defineResource } from '../../registry/define';
import { date, enumOf, integer, lines, money, reference } from '../../registry/fields';
import { currency, depreciationMethod, percent } from '../field-sets';

/** An asset's depreciation plan (ERPNext Asset Depreciation Schedule, Odoo depreciation board, BC FA depreciation book). */
export const depreciationSchedules = defineResource({
  name: 'depreciation_schedule',
  path: 'depreciation-schedules',
  module: 'assets',
  description:
    "How an asset's depreciable value (cost minus residual value) is spread over its useful life: one line per date, the amounts summing to that value.",
  fields: {
    asset_id: reference('asset', { required: true, filterable: true }),
    depreciation_book: enumOf(['company', 'tax', 'ifrs'], {
      required: true,
      filterable: true,
      description: 'The book it is kept in: the company accounts, tax depreciation, IFRS.',
      example: 'company',
    }),
    depreciation_method: depreciationMethod({ required: true }),
    start_date: date({
      required: true,
      filterable: true,
      sortable: true,
      description: 'First day depreciated (the in-service date).',
      example: '2026-02-01',
    }),
    useful_life_months: integer({ required: true, min: 1, max: 1200, example: 36 }),
    frequency_months: integer({
      required: true,
      min: 1,
      max: 12,
      description: 'Months between two lines.',
      example: 12,
    }),
    declining_rate: percent({ description: 'declining_balance: the yearly rate.' }),
    depreciable_cents: money({
      required: true,
      min: 0,
      description: 'Acquisition cost minus residual value: the lines sum to it.',
      example: 249_900,
    }),
    currency: currency(),
    lines: lines(
      {
        schedule_date: date({ required: true, example: '2026-12-31' }),
        depreciation_cents: money({ required: true, min: 0, example: 76_358 }),
        accumulated_cents: money({
          required: true,
          min: 0,
          description: 'Depreciation up to and including this line.',
          example: 76_358,
        }),
        book_value_cents: money({
          required: true,
          min: 0,
          description: 'Net book value after this line.',
          example: 173_542,
        }),
      },
      { required: true, description: 'The depreciation dates and amounts, in date order.' },
    ),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      activate: {
        from: ['brouillon'],
        to: 'actif',
        description: 'Entries are generated from it.',
      },
      complete: {
        from: ['actif'],
        to: 'termine',
        description: 'Fully depreciated: its last line is posted.',
      },
      cancel: {
        from: ['brouillon', 'actif'],
        to: 'annule',
        description: 'Replaced (the asset was revalued or disposed of).',
      },
    },
  },
});
