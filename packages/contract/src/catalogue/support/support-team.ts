import { defineResource } from '../../registry/define';
import { boolean, email, enumOf, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A team that handles tickets (Odoo helpdesk.team, ERPNext HD Team, BC service zones and resource groups). */
export const supportTeams = defineResource({
  name: 'support_team',
  path: 'support-teams',
  module: 'support',
  description:
    'A team that handles tickets: its inbox, its hours, how tickets are assigned among its members.',
  fields: {
    code: code('L1-FR'),
    name: title('Support niveau 1', { maxLength: 100 }),
    email: email({
      filterable: true,
      description: 'Inbox whose e-mails become its tickets.',
      example: 'support@demo.example',
    }),
    leader_id: reference(USER, { filterable: true, description: 'Who leads the team.' }),
    service_calendar_id: reference('service_calendar', {
      filterable: true,
      description: 'Its working hours, that its SLA deadlines count.',
    }),
    assignment_method: enumOf(['manual', 'round_robin', 'balanced'], {
      required: true,
      filterable: true,
      description:
        'How new tickets find an agent: by hand, each member in turn, or the one with the fewest open tickets.',
      example: 'balanced',
    }),
    uses_sla: boolean({
      required: true,
      description: 'Its tickets get SLA deadlines.',
      example: true,
    }),
    description: text({ maxLength: 2000 }),
  },
  lifecycle: lifecycles.archivable(),
});
