import { defineResource } from '../../registry/define';
import { boolean, reference } from '../../registry/fields';
import { period, title } from '../field-sets';

/** A day support is closed (ERPNext Holiday List, Odoo resource.calendar.leaves, BC service hours exceptions). */
export const serviceHolidays = defineResource({
  name: 'service_holiday',
  path: 'service-holidays',
  module: 'support',
  description: 'Days a service calendar is closed: SLA clocks stop then.',
  fields: {
    service_calendar_id: reference('service_calendar', { required: true, filterable: true }),
    name: title('Jour de l’An', { maxLength: 100 }),
    ...period(),
    is_recurring: boolean({
      required: true,
      filterable: true,
      description: 'Comes back every year on the same dates.',
      example: true,
    }),
  },
});
