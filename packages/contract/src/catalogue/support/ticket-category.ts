import { defineResource } from '../../registry/define';
import { reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** What a ticket is about (Odoo helpdesk.ticket.type, ERPNext Issue Type, BC fault area). */
export const ticketCategories = defineResource({
  name: 'ticket_category',
  path: 'ticket-categories',
  module: 'support',
  description:
    'A kind of request (billing question, breakdown, how-to), in a tree, routed to a team.',
  fields: {
    code: code('BREAKDOWN'),
    name: title('Panne matériel', { maxLength: 100 }),
    parent_id: reference('ticket_category', { filterable: true }),
    support_team_id: reference('support_team', {
      filterable: true,
      description: 'Team its tickets go to by default.',
    }),
    description: text({ maxLength: 2000 }),
  },
  lifecycle: lifecycles.archivable(),
});
