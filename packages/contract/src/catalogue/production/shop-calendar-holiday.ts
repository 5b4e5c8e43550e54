import { defineResource } from '../../registry/define';
import { boolean, reference } from '../../registry/fields';
import { period, title } from '../field-sets';

/** A closure of the shop floor (Odoo resource.calendar.leaves, BC shop calendar holiday, ERPNext Holiday List). */
export const shopCalendarHolidays = defineResource({
  name: 'shop_calendar_holiday',
  path: 'shop-calendar-holidays',
  module: 'production',
  description:
    'Days a shop calendar does not work (public holidays, summer shutdown): no capacity then.',
  fields: {
    shop_calendar_id: reference('shop_calendar', { required: true, filterable: true }),
    name: title('Fermeture estivale', { maxLength: 100 }),
    ...period(),
    is_recurring: boolean({
      required: true,
      filterable: true,
      description: 'Comes back every year on the same dates (1 May, 25 December).',
      example: false,
    }),
  },
});
