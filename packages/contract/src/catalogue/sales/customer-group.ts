import { defineResource } from '../../registry/define';
import { money, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, notes, percent, title } from '../field-sets';

/**
 * A segment of customers sharing prices and terms (ERPNext Customer Group, Business Central
 * customer price group and customer discount group, Odoo partner category with a pricelist).
 */
export const customerGroups = defineResource({
  name: 'customer_group',
  path: 'customer-groups',
  module: 'sales',
  description:
    'A segment of customers (retail, wholesale, public sector…) in a tree, with its default price list, payment term and discount.',
  fields: {
    code: code('WHOLESALE'),
    name: title('Wholesalers', { maxLength: 100 }),
    parent_id: reference('customer_group', { filterable: true }),
    price_list_id: reference('price_list', {
      filterable: true,
      description: 'Prices for its customers unless a customer names its own list.',
    }),
    payment_term_id: reference('payment_term', {
      filterable: true,
      description: 'Payment term for its customers unless a customer names its own.',
    }),
    default_discount_percent: percent({
      description: 'Discount granted on every line to its customers.',
      example: '5',
    }),
    credit_limit_cents: money({
      min: 0,
      description: 'Default credit limit of its customers, in minor units of the company currency.',
      example: 2_000_000,
    }),
    notes: notes(),
  },
  lifecycle: lifecycles.archivable(),
});
