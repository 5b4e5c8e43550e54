import { defineResource } from '../../registry/define';
import { date, enumOf, integer, reference, text, timestamp, USER } from '../../registry/fields';
import { title } from '../field-sets';

/** A call, meeting or task to do about a lead, a deal or a customer (Odoo mail.activity, ERPNext ToDo and Event, Business Central to-do and interaction). */
export const activities = defineResource({
  name: 'activity',
  path: 'activities',
  module: 'crm',
  description:
    'A follow-up to do (call, meeting, e-mail, task, demo) about a lead, an opportunity, a customer or a contact, due on a day, then done or cancelled.',
  fields: {
    activity_type: enumOf(['call', 'meeting', 'email', 'task', 'demo', 'follow_up'], {
      required: true,
      filterable: true,
      example: 'call',
    }),
    subject: title('Call back about the delivery dates'),
    due_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-12' }),
    assigned_to_id: reference(USER, { filterable: true, description: 'Who has to do it.' }),
    priority: enumOf(['low', 'normal', 'high'], { filterable: true, example: 'normal' }),
    lead_id: reference('lead', { filterable: true }),
    opportunity_id: reference('opportunity', { filterable: true }),
    customer_id: reference('customer', { filterable: true }),
    contact_id: reference('contact', { filterable: true }),
    duration_minutes: integer({ min: 0, max: 1440, example: 30 }),
    description: text({ maxLength: 5000 }),
    completed_at: timestamp({ filterable: true, description: 'When it was done.' }),
    outcome: text({
      maxLength: 2000,
      description: 'What came of it, written when done.',
      example: 'Agreed to send a revised quote by Friday.',
    }),
    task_id: reference('task', { filterable: true, description: 'The project task it is about.' }),
    support_ticket_id: reference('support_ticket', {
      filterable: true,
      description: 'The support ticket it is about.',
    }),
  },
  lifecycle: {
    initial: 'planifie',
    actions: {
      complete: { from: ['planifie'], to: 'termine', description: 'Done.' },
      cancel: { from: ['planifie'], to: 'annule', description: 'Will not be done.' },
      reopen: {
        from: ['termine', 'annule'],
        to: 'planifie',
        description: 'To do again.',
      },
    },
  },
});
