import { defineResource } from '../../registry/define';
import { decimal, money, reference } from '../../registry/fields';
import { currency, notes, period, title } from '../field-sets';

/**
 * What a salesperson, a team or a territory should sell over a period (ERPNext Target Detail
 * with its monthly distribution, Odoo crm.team invoiced target, Business Central salesperson
 * targets).
 */
export const salesTargets = defineResource({
  name: 'sales_target',
  path: 'sales-targets',
  module: 'sales',
  description:
    'A sales target for a period: an amount (and optionally a quantity) for a salesperson, a team or a territory, optionally for one product category.',
  fields: {
    name: title('Q2 2026 – Export – Europe', { maxLength: 200 }),
    salesperson_id: reference('salesperson', { filterable: true }),
    sales_team_id: reference('sales_team', { filterable: true }),
    territory_id: reference('territory', { filterable: true }),
    product_category_id: reference('product_category', {
      filterable: true,
      description: 'Empty: every product counts.',
    }),
    ...period(),
    target_amount_cents: money({
      required: true,
      min: 0,
      filterable: true,
      description: 'Amount to invoice before tax over the period, in minor units of `currency`.',
      example: 45_000_000,
    }),
    target_quantity: decimal({
      min: 0,
      description: 'Units to sell over the period, for a target on a product category.',
      example: '1200',
    }),
    currency: currency(),
    notes: notes(),
  },
});
