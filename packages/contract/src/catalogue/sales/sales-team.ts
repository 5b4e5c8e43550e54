import { defineResource } from '../../registry/define';
import { email, money, reference, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, notes, title } from '../field-sets';

/** A team of salespeople with a leader and a target (Odoo crm.team, ERPNext Sales Team, Business Central team). */
export const salesTeams = defineResource({
  name: 'sales_team',
  path: 'sales-teams',
  module: 'sales',
  description:
    'A sales team (direct sales, export, key accounts…) with its leader, its shared mailbox and its monthly invoicing target.',
  fields: {
    code: code('EXPORT'),
    name: title('Export – Europe', { maxLength: 100 }),
    leader_id: reference(USER, { filterable: true, description: 'Who leads the team.' }),
    email: email({
      filterable: true,
      description: 'Shared mailbox; mail to it creates leads for the team.',
      example: 'export@example.com',
    }),
    monthly_target_cents: money({
      min: 0,
      description: 'Amount the team is expected to invoice per month, in the company currency.',
      example: 15_000_000,
    }),
    notes: notes(),
  },
  lifecycle: lifecycles.archivable(),
});
