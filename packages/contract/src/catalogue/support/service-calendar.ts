import { defineResource } from '../../registry/define';
import { text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, timeZone, title, workingHours } from '../field-sets';

/** The hours support works, that SLA clocks run in (ERPNext SLA support hours, Odoo helpdesk team working hours, BC service hours). */
export const serviceCalendars = defineResource({
  name: 'service_calendar',
  path: 'service-calendars',
  module: 'support',
  description: 'Support’s working week: SLA deadlines count only its hours, and not its holidays.',
  fields: {
    code: code('HO-8-18', { description: 'Short code SLA policies and teams name it by.' }),
    name: title('Heures ouvrées 8 h – 18 h', { maxLength: 100 }),
    time_zone: timeZone(),
    working_hours: workingHours({
      description: 'Support hours by weekday; a day without a line has no support.',
    }),
    description: text({ maxLength: 1000 }),
  },
  lifecycle: lifecycles.archivable(),
});
