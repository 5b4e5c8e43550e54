import { defineResource } from '../../registry/define';
import { enumOf, reference, text, timestamp, USER } from '../../registry/fields';

/** A message on a ticket's thread (Odoo mail.message on helpdesk.ticket, ERPNext Communication on an Issue). */
export const ticketMessages = defineResource({
  name: 'ticket_message',
  path: 'ticket-messages',
  module: 'support',
  description:
    'A message in a ticket’s conversation: the customer’s, an agent’s reply, or an internal note the customer does not see.',
  fields: {
    support_ticket_id: reference('support_ticket', { required: true, filterable: true }),
    message_type: enumOf(['customer_message', 'reply', 'internal_note'], {
      required: true,
      filterable: true,
      example: 'reply',
    }),
    author_user_id: reference(USER, {
      filterable: true,
      description: 'The agent who wrote it (replies and notes).',
    }),
    author_contact_id: reference('contact', {
      filterable: true,
      description: 'The customer’s contact who wrote it.',
    }),
    body: text({
      required: true,
      maxLength: 20000,
      description: 'The message, as plain text.',
      example: 'Bonjour, pouvez-vous nous envoyer une photo de la plaque signalétique ?',
    }),
    sent_at: timestamp({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-09T10:05:00+01:00',
    }),
    support_channel_id: reference('support_channel', {
      filterable: true,
      description: 'How it was sent or received.',
    }),
  },
});
