import { defineResource } from '../../registry/define';
import { enumOf, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, notes, title } from '../field-sets';

/** A book entries are recorded in (Odoo account.journal, BC general journal batch, ERPNext journal entry voucher types). */
export const journals = defineResource({
  name: 'journal',
  path: 'journals',
  module: 'accounting',
  description:
    'A journal entries are recorded in (sales, purchases, bank, cash or miscellaneous), with the account it proposes and the prefix of its entry numbers.',
  fields: {
    code: code('VTE', {
      maxLength: 10,
      description: 'Short code printed on entries and in the FEC export (JournalCode).',
    }),
    name: title('Ventes', { maxLength: 100 }),
    journal_type: enumOf(['sales', 'purchases', 'bank', 'cash', 'miscellaneous'], {
      required: true,
      filterable: true,
      description: 'What the journal records; invoices go to sales, bills to purchases.',
      example: 'sales',
    }),
    default_account_id: reference('account', {
      filterable: true,
      description:
        'Account proposed on its entries: income for sales, expense for purchases, 512 for a bank.',
    }),
    suspense_account_id: reference('account', {
      description: 'Bank and cash journals: where transactions wait until they are reconciled.',
    }),
    sequence_prefix: text({
      required: true,
      filterable: true,
      maxLength: 20,
      description: 'Prefix of the numbers its entries get (VTE/2026/0001).',
      example: 'VTE',
    }),
    currency: text({
      maxLength: 3,
      description: 'Set when the journal only takes entries in this currency (a USD bank account).',
      example: 'EUR',
    }),
    notes: notes(),
  },
  lifecycle: lifecycles.archivable(),
});
