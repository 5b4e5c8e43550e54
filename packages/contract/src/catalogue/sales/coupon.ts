import { defineResource } from '../../registry/define';
import { date, integer, reference, text } from '../../registry/fields';

/** A code that unlocks a promotion (Odoo loyalty.card of a coupon program, ERPNext Coupon Code). */
export const coupons = defineResource({
  name: 'coupon',
  path: 'coupons',
  module: 'sales',
  description:
    'A coupon code of a promotion, for anyone or one customer, with its expiry and how often it was used.',
  fields: {
    code: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 40,
      description: 'The code the customer gives.',
      example: 'WELCOME-7KQ2M',
    }),
    promotion_id: reference('promotion', { required: true, filterable: true }),
    customer_id: reference('customer', {
      filterable: true,
      description: 'The only customer who may use it; empty: anyone.',
    }),
    sales_order_id: reference('sales_order', {
      filterable: true,
      description: 'The order that earned it (next-order coupons, loyalty rewards).',
    }),
    expiry_date: date({ filterable: true, example: '2026-06-30' }),
    max_uses: integer({ required: true, min: 1, example: 1 }),
    times_used: integer({
      required: true,
      min: 0,
      filterable: true,
      description: 'Orders it was applied to so far.',
      example: 0,
    }),
    last_used_date: date({ filterable: true }),
  },
  lifecycle: {
    initial: 'actif',
    editable: ['actif', 'suspendu'],
    actions: {
      suspend: { from: ['actif'], to: 'suspendu', description: 'Not accepted for a while.' },
      resume: { from: ['suspendu'], to: 'actif', description: 'Accepted again.' },
      expire: { from: ['actif'], to: 'expire', description: 'Past its expiry date.' },
      cancel: {
        from: ['actif', 'suspendu'],
        to: 'annule',
        description: 'Revoked; no longer accepted.',
      },
    },
  },
});
