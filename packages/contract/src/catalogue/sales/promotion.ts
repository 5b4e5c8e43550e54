import { defineResource } from '../../registry/define';
import {
  boolean,
  date,
  decimal,
  enumOf,
  integer,
  money,
  reference,
  text,
} from '../../registry/fields';
import { lifecycles, withActions } from '../../registry/lifecycles';
import { notes, percent, title } from '../field-sets';

/**
 * A discount rule or promotion (Odoo loyalty.program from sale_loyalty, ERPNext Pricing Rule
 * and Promotional Scheme, Business Central sales line discounts and campaign prices).
 */
export const promotions = defineResource({
  name: 'promotion',
  path: 'promotions',
  module: 'sales',
  description:
    'A promotion or discount rule: who and what it applies to, its conditions (quantity, amount, code), its reward and its validity.',
  fields: {
    name: title('Spring sale – 10 % off office chairs'),
    program_type: enumOf(['automatic', 'promo_code', 'coupons', 'loyalty', 'buy_x_get_y'], {
      required: true,
      filterable: true,
      description:
        'automatic: applies by itself; promo_code: one code for everyone; coupons: single-use codes; loyalty: points; buy_x_get_y: free units.',
      example: 'automatic',
    }),
    promo_code: text({
      maxLength: 40,
      filterable: true,
      description: 'The code customers type (promo_code programs).',
      example: 'SPRING26',
    }),
    reward_type: enumOf(['percent_discount', 'amount_discount', 'free_product', 'free_shipping'], {
      required: true,
      filterable: true,
      example: 'percent_discount',
    }),
    discount_percent: percent({ description: 'percent_discount reward.', example: '10' }),
    discount_amount_cents: money({
      min: 0,
      description: 'amount_discount reward, in minor units of the company currency.',
    }),
    free_product_id: reference('product', {
      filterable: true,
      description: 'free_product reward: the product given.',
    }),
    free_quantity: decimal({ min: 0, description: 'Units given free.', example: '1' }),
    applies_to: enumOf(['all', 'product', 'product_category', 'customer_group'], {
      required: true,
      filterable: true,
      example: 'product_category',
    }),
    product_id: reference('product', { filterable: true }),
    product_category_id: reference('product_category', { filterable: true }),
    customer_group_id: reference('customer_group', { filterable: true }),
    min_quantity: decimal({
      min: 0,
      description: 'Units to buy for the rule to apply.',
      example: '10',
    }),
    min_amount_cents: money({
      min: 0,
      description: 'Order amount before tax for the rule to apply.',
      example: 50_000,
    }),
    start_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-20' }),
    end_date: date({ filterable: true, example: '2026-04-30' }),
    max_uses: integer({ min: 1, description: 'Orders it may apply to in all; empty: no limit.' }),
    max_uses_per_customer: integer({ min: 1, example: 1 }),
    is_combinable: boolean({
      required: true,
      description: 'Whether it may apply together with other promotions.',
      example: false,
    }),
    priority: integer({
      min: 0,
      max: 100,
      description: 'Higher applies first when promotions do not combine.',
      example: 10,
    }),
    notes: notes(),
  },
  lifecycle: withActions(lifecycles.agreement(), {
    terminate: null,
    activate: { from: ['brouillon'], to: 'actif', description: 'Applies to new orders.' },
    expire: { from: ['actif'], to: 'expire', description: 'Past its end date.' },
    cancel: { from: ['brouillon'], to: 'annule', description: 'Never ran.' },
  }),
});
