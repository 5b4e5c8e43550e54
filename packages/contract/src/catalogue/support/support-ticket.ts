import { defineResource } from '../../registry/define';
import { email, enumOf, reference, text, timestamp, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';
import { TICKET_PRIORITIES } from './priorities';

/** A customer's request to support (Odoo helpdesk.ticket, ERPNext Issue / HD Ticket, BC service order header). */
export const supportTickets = defineResource({
  name: 'support_ticket',
  path: 'support-tickets',
  module: 'support',
  description:
    'A request from a customer, handled by a team until resolved, with the SLA deadlines its policy and priority give it.',
  numbering: { prefix: 'TKT' },
  fields: {
    subject: title('La machine affiche une erreur E42 au démarrage', { maxLength: 250 }),
    description: text({ maxLength: 10000 }),
    customer_id: reference('customer', { filterable: true }),
    contact_id: reference('contact', {
      filterable: true,
      description: 'The person who asked.',
    }),
    requester_email: email({
      filterable: true,
      description: 'Address answers go to, when the requester is not a known contact.',
    }),
    support_channel_id: reference('support_channel', {
      filterable: true,
      description: 'Where it came in.',
    }),
    priority: enumOf(TICKET_PRIORITIES, { required: true, filterable: true, example: 'high' }),
    ticket_category_id: reference('ticket_category', { filterable: true }),
    support_team_id: reference('support_team', { filterable: true }),
    assignee_id: reference(USER, { filterable: true, description: 'The agent handling it.' }),
    product_id: reference('product', { filterable: true, description: 'The product concerned.' }),
    service_item_id: reference('service_item', {
      filterable: true,
      description: 'The unit concerned, by serial number.',
    }),
    service_contract_id: reference('service_contract', {
      filterable: true,
      description: 'The agreement it is handled under.',
    }),
    sla_policy_id: reference('sla_policy', {
      filterable: true,
      description: 'The policy its deadlines come from.',
    }),
    opened_at: timestamp({
      required: true,
      filterable: true,
      sortable: true,
      description: 'When the request was received; the SLA clocks start then.',
      example: '2026-03-09T09:12:00+01:00',
    }),
    first_response_due_at: timestamp({
      filterable: true,
      description: 'Deadline for the first answer, from the SLA policy.',
      example: '2026-03-09T11:12:00+01:00',
    }),
    resolution_due_at: timestamp({
      filterable: true,
      description: 'Deadline for the resolution, from the SLA policy.',
      example: '2026-03-10T17:12:00+01:00',
    }),
    first_responded_at: timestamp({ filterable: true }),
    resolved_at: timestamp({ filterable: true }),
    sla_status: enumOf(['on_track', 'at_risk', 'breached', 'fulfilled'], {
      filterable: true,
      description: 'Where the ticket stands against its deadlines.',
      example: 'on_track',
    }),
    resolution: text({ maxLength: 5000, description: 'How it was solved.' }),
  },
  lifecycle: lifecycles.ticket(),
});
