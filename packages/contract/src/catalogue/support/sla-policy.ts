import { defineResource } from '../../registry/define';
import { boolean, decimal, enumOf, lines, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, period, title } from '../field-sets';
import { TICKET_PRIORITIES } from './priorities';

/** Response and resolution targets by priority (ERPNext Service Level Agreement, Odoo helpdesk.sla, BC service order response time). */
export const slaPolicies = defineResource({
  name: 'sla_policy',
  path: 'sla-policies',
  module: 'support',
  description:
    'A service level agreement: by ticket priority, the hours within which a first response and a resolution are due, counted in its calendar.',
  fields: {
    code: code('SLA-STD'),
    name: title('Standard', { maxLength: 100 }),
    description: text({ maxLength: 2000 }),
    support_team_id: reference('support_team', {
      filterable: true,
      description: 'Applies to this team’s tickets; empty for every team.',
    }),
    ticket_category_id: reference('ticket_category', {
      filterable: true,
      description: 'Applies to this category’s tickets; empty for every category.',
    }),
    customer_id: reference('customer', {
      filterable: true,
      description: 'Applies to this customer only (a contracted SLA); empty for every customer.',
    }),
    service_calendar_id: reference('service_calendar', {
      filterable: true,
      description: 'Hours the targets count; empty: around the clock.',
    }),
    is_default: boolean({
      required: true,
      filterable: true,
      description: 'Applies to tickets no other policy matches.',
      example: true,
    }),
    ...period(false),
    targets: lines(
      {
        priority: enumOf(TICKET_PRIORITIES, { required: true, example: 'high' }),
        first_response_hours: decimal({
          required: true,
          min: 0,
          description: 'Working hours until the first answer is due.',
          example: '2',
        }),
        resolution_hours: decimal({
          required: true,
          min: 0,
          description: 'Working hours until the ticket must be resolved.',
          example: '16',
        }),
      },
      { required: true, maxItems: 10, description: 'Targets, one line per priority.' },
    ),
  },
  lifecycle: lifecycles.archivable(),
});
