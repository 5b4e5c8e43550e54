import { defineResource } from '../../registry/define';
import { email, enumOf, reference, text, timestamp, USER } from '../../registry/fields';
import { notes, title } from '../field-sets';

/** A meeting booked with a prospect or a customer (Odoo appointment and calendar.event, ERPNext Appointment). */
export const appointments = defineResource({
  name: 'appointment',
  path: 'appointments',
  module: 'crm',
  description:
    'A meeting booked with a prospect or a customer (on site, by video or by phone) at a set time, confirmed, then held or cancelled.',
  fields: {
    subject: title('Showroom visit – Lyon'),
    appointment_type: enumOf(['in_person', 'video_call', 'phone_call'], {
      required: true,
      filterable: true,
      example: 'in_person',
    }),
    starts_at: timestamp({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-12T09:30:00Z',
    }),
    ends_at: timestamp({ required: true, filterable: true, example: '2026-03-12T10:30:00Z' }),
    location: text({ maxLength: 300, example: '12 rue de la République, 69002 Lyon' }),
    video_url: text({ maxLength: 500, example: 'https://meet.example.com/abc-defg-hij' }),
    organiser_id: reference(USER, { filterable: true, description: 'Who hosts it.' }),
    customer_id: reference('customer', { filterable: true }),
    lead_id: reference('lead', { filterable: true }),
    contact_id: reference('contact', { filterable: true }),
    opportunity_id: reference('opportunity', { filterable: true }),
    attendee_name: text({ maxLength: 200, fake: 'person_name', example: 'Ana Duval' }),
    attendee_email: email({ filterable: true, example: 'ana.duval@martin.fr' }),
    notes: notes(),
  },
  lifecycle: {
    initial: 'planifie',
    editable: ['planifie', 'confirme'],
    actions: {
      confirm: { from: ['planifie'], to: 'confirme', description: 'The attendee confirmed.' },
      complete: { from: ['confirme'], to: 'termine', description: 'The meeting took place.' },
      cancel: {
        from: ['planifie', 'confirme'],
        to: 'annule',
        description: 'Called off by either side.',
      },
    },
  },
});
