import { defineResource } from '../../registry/define';
import { reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A class of suppliers with shared defaults (ERPNext Supplier Group, BC Vendor Posting Group, Odoo partner category). */
export const supplierGroups = defineResource({
  name: 'supplier_group',
  path: 'supplier-groups',
  module: 'purchasing',
  description:
    'A group of suppliers (raw materials, logistics, services) in a tree, with the payables account and payment term its members default to.',
  fields: {
    code: code('RAW'),
    name: title('Raw materials', { maxLength: 100 }),
    parent_id: reference('supplier_group', { filterable: true }),
    payable_account_id: reference('account', {
      filterable: true,
      description: 'Where what is owed to its suppliers is posted.',
    }),
    payment_term_id: reference('payment_term', { filterable: true }),
    description: text({ maxLength: 1000 }),
  },
  lifecycle: lifecycles.archivable(),
});
