import { defineResource } from '../../registry/define';
import { boolean, date, enumOf, lines, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { period, title } from '../field-sets';

/** Public holidays and weekly days off for a year (ERPNext Holiday List, Odoo resource.calendar.leaves, BC Base Calendar). */
export const holidayLists = defineResource({
  name: 'holiday_list',
  path: 'holiday-lists',
  module: 'hr',
  description:
    'The public holidays and weekly days off of a period and a country: not counted as leave, not worked.',
  fields: {
    name: title('France 2026', { maxLength: 100 }),
    country_code: text({
      maxLength: 2,
      filterable: true,
      description: 'ISO 3166-1 alpha-2 country whose public holidays these are.',
      example: 'FR',
    }),
    ...period(),
    weekly_off: enumOf(['saturday_sunday', 'sunday', 'friday_saturday', 'none'], {
      required: true,
      description: 'Days off every week.',
      example: 'saturday_sunday',
    }),
    holidays: lines(
      {
        holiday_date: date({ required: true, example: '2026-07-14' }),
        description: text({ required: true, maxLength: 200, example: 'Fête nationale' }),
        is_half_day: boolean({ example: false }),
      },
      { required: true, maxItems: 100, description: 'The public holidays, one line each.' },
    ),
  },
  lifecycle: lifecycles.archivable(),
});
