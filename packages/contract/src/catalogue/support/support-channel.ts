import { defineResource } from '../../registry/define';
import { enumOf, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** Where tickets come in (Odoo helpdesk team channels: e-mail alias, website form, live chat; ERPNext Issue via e-mail account). */
export const supportChannels = defineResource({
  name: 'support_channel',
  path: 'support-channels',
  module: 'support',
  description:
    'A way customers reach support (an inbox, a web form, a phone line, a chat), and where its tickets go.',
  fields: {
    code: code('EMAIL-FR'),
    name: title('E-mail support France', { maxLength: 100 }),
    channel_type: enumOf(['email', 'web_form', 'phone', 'chat', 'portal', 'social_media'], {
      required: true,
      filterable: true,
      example: 'email',
    }),
    address: text({
      maxLength: 254,
      filterable: true,
      description: 'The inbox, phone number or page customers use.',
      example: 'support@demo.example',
    }),
    support_team_id: reference('support_team', {
      filterable: true,
      description: 'Team its tickets go to.',
    }),
    ticket_category_id: reference('ticket_category', {
      filterable: true,
      description: 'Category its tickets get by default.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
