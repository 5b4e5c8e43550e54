import { defineResource } from '../../registry/define';
import { boolean, email, reference, text, timestamp } from '../../registry/fields';

/** One subscriber of a marketing list (Odoo mailing.subscription, ERPNext Email Group Member, Business Central segment line). */
export const marketingListMembers = defineResource({
  name: 'marketing_list_member',
  path: 'marketing-list-members',
  module: 'crm',
  description:
    'A member of a marketing list: a contact, a lead or a customer, the address mail goes to, and whether they opted out.',
  fields: {
    marketing_list_id: reference('marketing_list', { required: true, filterable: true }),
    contact_id: reference('contact', { filterable: true }),
    lead_id: reference('lead', { filterable: true }),
    customer_id: reference('customer', { filterable: true }),
    email: email({ required: true, filterable: true, example: 'ana.duval@martin.fr' }),
    full_name: text({ maxLength: 200, example: 'Ana Duval' }),
    subscribed_at: timestamp({ filterable: true }),
    is_opted_out: boolean({
      required: true,
      filterable: true,
      description: 'Asked to receive nothing more from this list (kept to honour it).',
      example: false,
    }),
    opted_out_at: timestamp({ filterable: true }),
  },
});
