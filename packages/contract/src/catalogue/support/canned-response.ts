import { defineResource } from '../../registry/define';
import { reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A reply agents insert by shortcut (Odoo mail.canned.response, ERPNext HD Canned Response). */
export const cannedResponses = defineResource({
  name: 'canned_response',
  path: 'canned-responses',
  module: 'support',
  description: 'A prepared reply agents insert by its shortcut, for the questions that come back.',
  fields: {
    shortcut: code('reset-password', { description: 'What the agent types to insert it.' }),
    name: title('Réinitialiser le mot de passe', { maxLength: 100 }),
    body: text({
      required: true,
      maxLength: 10000,
      example: 'Bonjour, vous pouvez réinitialiser votre mot de passe depuis la page de connexion.',
    }),
    language: text({
      maxLength: 16,
      filterable: true,
      description: 'BCP 47 language tag.',
      example: 'fr',
    }),
    ticket_category_id: reference('ticket_category', { filterable: true }),
    support_team_id: reference('support_team', {
      filterable: true,
      description: 'Offered to this team only; empty for every team.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
