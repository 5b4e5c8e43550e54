import { defineResource } from '../../registry/define';
import { decimal, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, timeZone, title, workingHours } from '../field-sets';

/** When the shop floor works (BC Shop Calendar, Odoo resource.calendar, ERPNext workstation working hours). */
export const shopCalendars = defineResource({
  name: 'shop_calendar',
  path: 'shop-calendars',
  module: 'production',
  description:
    'The working week of the shop floor: hours by weekday that capacity and scheduling count on.',
  fields: {
    code: code('2X8-MON-FRI', { description: 'Short code work centres are assigned by.' }),
    name: title('Two shifts, Monday to Friday', { maxLength: 100 }),
    time_zone: timeZone(),
    hours_per_day: decimal({
      min: 0,
      max: 24,
      description: 'Average hours worked per working day, used to turn days into hours.',
      example: '16',
    }),
    working_hours: workingHours(),
    description: text({ maxLength: 1000 }),
  },
  lifecycle: lifecycles.archivable(),
});
