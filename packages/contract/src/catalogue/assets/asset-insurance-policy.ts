import { defineResource } from '../../registry/define';
import { enumOf, lines, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes, period } from '../field-sets';

/** An insurance policy covering assets (BC FA insurance, ERPNext asset insurance details). */
export const assetInsurancePolicies = defineResource({
  name: 'asset_insurance_policy',
  path: 'asset-insurance-policies',
  module: 'assets',
  description:
    'An insurance policy on assets: the insurer, the cover, the premium and each asset’s insured value.',
  fields: {
    policy_number: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 50,
      fake: 'code',
      example: 'AXA-MR-4481220',
    }),
    insurer_id: reference('supplier', { required: true, filterable: true }),
    coverage_type: enumOf(
      ['all_risks', 'fire', 'theft', 'machinery_breakdown', 'motor', 'electronic_equipment'],
      { required: true, filterable: true, example: 'all_risks' },
    ),
    ...period(),
    premium_cents: money({ required: true, min: 0, example: 184_000 }),
    premium_frequency: enumOf(['monthly', 'quarterly', 'yearly'], {
      required: true,
      example: 'yearly',
    }),
    deductible_cents: money({ min: 0, description: 'Excess per claim.', example: 50_000 }),
    currency: currency(),
    insured_assets: lines(
      {
        asset_id: reference('asset', { required: true }),
        insured_value_cents: money({ required: true, min: 0, example: 249_900 }),
      },
      { required: true, description: 'The assets covered and for how much.' },
    ),
    notes: notes(),
  },
  lifecycle: lifecycles.agreement(),
});
