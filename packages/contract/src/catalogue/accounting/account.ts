import { defineResource } from '../../registry/define';
import { boolean, enumOf, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A line of the chart of accounts (ERPNext Account, Odoo account.account, BC G/L account). */
export const accounts = defineResource({
  name: 'account',
  path: 'accounts',
  module: 'accounting',
  description: 'A general-ledger account of the chart of accounts.',
  fields: {
    code: code('411000', { maxLength: 20, description: 'Account number (PCG, SKR, …).' }),
    name: title('Clients'),
    account_type: enumOf(['asset', 'liability', 'equity', 'income', 'expense'], {
      required: true,
      filterable: true,
      example: 'asset',
    }),
    sub_type: enumOf(
      [
        'receivable',
        'payable',
        'bank',
        'cash',
        'tax',
        'fixed_asset',
        'depreciation',
        'stock',
        'other',
      ],
      { filterable: true, description: 'What the account is used for.', example: 'receivable' },
    ),
    parent_id: reference('account', {
      filterable: true,
      description: 'The group account above it.',
    }),
    is_group: boolean({
      required: true,
      filterable: true,
      description: 'A group account only sums its children: nothing is posted to it.',
      example: false,
    }),
    reconcilable: boolean({
      required: true,
      description: 'Entries are matched against each other (receivables, payables, bank).',
      example: true,
    }),
    currency: text({
      maxLength: 3,
      description: 'Set when the account is kept in one currency.',
      example: 'EUR',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
