import { defineResource } from '../../registry/define';
import { boolean, integer, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, depreciationMethod, percent, title } from '../field-sets';

/** A class of fixed assets and how they depreciate (ERPNext Asset Category, Odoo asset model, BC FA class and posting group). */
export const assetCategories = defineResource({
  name: 'asset_category',
  path: 'asset-categories',
  module: 'assets',
  description:
    'A class of fixed assets (IT equipment, vehicles, machines…): its default depreciation method and useful life, and the accounts its assets are posted to.',
  fields: {
    code: code('IT-HARDWARE'),
    name: title('Matériel informatique', { maxLength: 100 }),
    depreciation_method: depreciationMethod({ required: true }),
    useful_life_months: integer({
      required: true,
      min: 1,
      max: 1200,
      description: 'Default useful life of its assets, in months.',
      example: 36,
    }),
    declining_rate: percent({
      description:
        'declining_balance: the yearly rate (French dégressif: straight-line rate × 1.25, 1.75 or 2.25).',
      example: '58.33',
    }),
    frequency_months: integer({
      required: true,
      min: 1,
      max: 12,
      description: 'Months between two depreciation entries (1 monthly, 3 quarterly, 12 yearly).',
      example: 12,
    }),
    prorata_temporis: boolean({
      required: true,
      description: 'The first year is depreciated for the part of it the asset was in service.',
      example: true,
    }),
    asset_account_id: reference('account', {
      filterable: true,
      description: 'Fixed-asset account its cost is posted to (21…).',
    }),
    depreciation_account_id: reference('account', {
      description: 'Accumulated depreciation account (28…).',
    }),
    expense_account_id: reference('account', {
      description: 'Depreciation expense account (6811…).',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
