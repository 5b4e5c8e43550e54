import { defineResource } from '../../registry/define';
import { boolean, enumOf, integer, reference, USER } from '../../registry/fields';

/** An agent of a support team (Odoo helpdesk.team member_ids, ERPNext HD Team users). */
export const supportTeamMembers = defineResource({
  name: 'support_team_member',
  path: 'support-team-members',
  module: 'support',
  description: 'A user who takes tickets in a support team, with their role and workload limit.',
  fields: {
    support_team_id: reference('support_team', { required: true, filterable: true }),
    user_id: reference(USER, {
      filterable: true,
      description: 'The agent; emptied if they leave the tenant (the row may then be deleted).',
    }),
    role: enumOf(['agent', 'supervisor'], { required: true, filterable: true, example: 'agent' }),
    max_open_tickets: integer({
      min: 0,
      description: 'Most tickets assigned to them at once by automatic assignment.',
      example: 15,
    }),
    is_available: boolean({
      required: true,
      filterable: true,
      description: 'Takes new tickets (false while away).',
      example: true,
    }),
  },
});
