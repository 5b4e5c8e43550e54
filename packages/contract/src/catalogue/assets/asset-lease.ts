import { defineResource } from '../../registry/define';
import { enumOf, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes, percent, period } from '../field-sets';

/** An asset rented from a lessor (IFRS 16 / French crédit-bail; BC and Odoo leasing add-ons). */
export const assetLeases = defineResource({
  name: 'asset_lease',
  path: 'asset-leases',
  module: 'assets',
  description:
    'A lease of equipment or vehicles from a lessor: the term, the instalments, the purchase option at the end.',
  numbering: { prefix: 'LSE' },
  fields: {
    lessor_id: reference('supplier', { required: true, filterable: true }),
    asset_id: reference('asset', {
      filterable: true,
      description: 'The right-of-use asset, when it is recorded as one (finance lease).',
    }),
    description: text({
      required: true,
      maxLength: 500,
      example: 'Peugeot e-208 — véhicule de service',
    }),
    lease_type: enumOf(['operating', 'finance'], {
      required: true,
      filterable: true,
      description: 'finance: the risks pass to the tenant (crédit-bail); operating: a rental.',
      example: 'operating',
    }),
    contract_reference: text({ maxLength: 100, filterable: true, example: 'LLD-2026-55012' }),
    ...period(),
    payment_frequency: enumOf(['monthly', 'quarterly', 'yearly'], {
      required: true,
      example: 'monthly',
    }),
    instalment_cents: money({ required: true, min: 0, example: 42_900 }),
    deposit_cents: money({ min: 0, example: 150_000 }),
    purchase_option_cents: money({
      min: 0,
      description: 'Price to buy the asset at the end of the term.',
      example: 320_000,
    }),
    interest_rate: percent({ description: 'Rate implicit in the lease, yearly.', example: '4.2' }),
    currency: currency(),
    notes: notes(),
  },
  lifecycle: lifecycles.agreement(),
});
