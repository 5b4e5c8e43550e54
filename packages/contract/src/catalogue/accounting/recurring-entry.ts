import { defineResource } from '../../registry/define';
import { boolean, date, enumOf, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, ledgerLines, notes, title } from '../field-sets';

/** An entry posted again every period (BC recurring general journal, ERPNext Auto Repeat on Journal Entry, Odoo recurring entries). */
export const recurringEntries = defineResource({
  name: 'recurring_entry',
  path: 'recurring-entries',
  module: 'accounting',
  description:
    'A model entry (rent, subscriptions, accruals) the ledger receives again at each frequency while it is in force.',
  fields: {
    name: title('Loyer bureaux Paris'),
    journal_id: reference('journal', { required: true, filterable: true }),
    frequency: enumOf(['weekly', 'monthly', 'quarterly', 'half_yearly', 'yearly'], {
      required: true,
      filterable: true,
      example: 'monthly',
    }),
    start_date: date({ required: true, filterable: true, sortable: true, example: '2026-01-01' }),
    end_date: date({ filterable: true, description: 'Empty: until stopped.' }),
    next_run_date: date({
      filterable: true,
      description: 'The next day an entry is generated.',
      example: '2026-04-01',
    }),
    auto_post: boolean({
      required: true,
      description: 'Generated entries are posted at once rather than left as drafts.',
      example: true,
    }),
    currency: currency(),
    lines: ledgerLines(),
    notes: notes(),
  },
  lifecycle: lifecycles.agreement(),
});
