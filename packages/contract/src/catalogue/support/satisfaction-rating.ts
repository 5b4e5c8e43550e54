import { defineResource } from '../../registry/define';
import { integer, reference, text, timestamp } from '../../registry/fields';

/** A customer's rating of how a ticket was handled (Odoo rating.rating, ERPNext HD Ticket feedback). */
export const satisfactionRatings = defineResource({
  name: 'satisfaction_rating',
  path: 'satisfaction-ratings',
  module: 'support',
  description:
    'The satisfaction survey sent when a ticket is solved, and the customer’s rating (1 to 5) and comment once answered.',
  fields: {
    support_ticket_id: reference('support_ticket', { required: true, filterable: true }),
    customer_id: reference('customer', { filterable: true }),
    contact_id: reference('contact', { filterable: true }),
    sent_at: timestamp({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-10T17:30:00+01:00',
    }),
    responded_at: timestamp({ filterable: true, example: '2026-03-11T08:02:00+01:00' }),
    rating: integer({
      min: 1,
      max: 5,
      filterable: true,
      description: '1 (very unhappy) to 5 (very happy); empty until answered.',
      example: 5,
    }),
    comment: text({ maxLength: 5000, example: 'Réponse rapide et efficace, merci !' }),
  },
});
