import { defineResource } from '../../registry/define';
import { enumOf, integer, reference, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';
import { TICKET_PRIORITIES } from './priorities';

/** What happens when a deadline nears or passes (Odoo helpdesk SLA automations, ERPNext SLA escalation, Zendesk-style triggers). */
export const escalationRules = defineResource({
  name: 'escalation_rule',
  path: 'escalation-rules',
  module: 'support',
  description:
    'A rule that escalates tickets before or after an SLA deadline: notify someone, reassign, raise the priority.',
  fields: {
    code: code('ESC-RESOLUTION-BREACH'),
    name: title('Résolution dépassée : prévenir le responsable', { maxLength: 200 }),
    support_team_id: reference('support_team', {
      filterable: true,
      description: 'Applies to this team’s tickets; empty for every team.',
    }),
    sla_policy_id: reference('sla_policy', {
      filterable: true,
      description: 'Applies to tickets under this policy; empty for every policy.',
    }),
    priority: enumOf(TICKET_PRIORITIES, {
      filterable: true,
      description: 'Applies to tickets of this priority; empty for every priority.',
    }),
    trigger: enumOf(
      [
        'first_response_due',
        'first_response_breached',
        'resolution_due',
        'resolution_breached',
        'no_customer_reply',
        'low_rating',
      ],
      { required: true, filterable: true, example: 'resolution_breached' },
    ),
    offset_minutes: integer({
      required: true,
      min: 0,
      description: 'Minutes before a deadline (`…_due`) or after it or the last reply.',
      example: 0,
    }),
    action: enumOf(['notify', 'reassign', 'raise_priority', 'move_team'], {
      required: true,
      filterable: true,
      example: 'notify',
    }),
    escalate_to_id: reference(USER, {
      filterable: true,
      description: 'Who is notified or gets the ticket.',
    }),
    target_team_id: reference('support_team', {
      filterable: true,
      description: 'Team the ticket moves to (`move_team`).',
    }),
    new_priority: enumOf(TICKET_PRIORITIES, {
      description: 'Priority the ticket gets (`raise_priority`).',
      example: 'urgent',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
