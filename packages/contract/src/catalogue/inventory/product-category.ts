import { defineResource } from '../../registry/define';
import { reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A group of products, and where their sales and purchases are posted (ERPNext Item Group, Odoo product.category). */
export const productCategories = defineResource({
  name: 'product_category',
  path: 'product-categories',
  module: 'inventory',
  description: 'A group of products in a tree, with default accounts for what it sells and buys.',
  fields: {
    code: code('FURN'),
    name: title('Furniture', { fake: 'department' }),
    parent_id: reference('product_category', { filterable: true }),
    income_account_id: reference('account', {
      filterable: true,
      description: 'Where sales are posted.',
    }),
    expense_account_id: reference('account', {
      filterable: true,
      description: 'Where purchases are posted.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
