import { defineResource } from '../../registry/define';
import { boolean, decimal, integer, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

const hour = (description: string, example: string) =>
  decimal({ required: true, min: 0, max: 24, description, example });

/** A working schedule (ERPNext Shift Type, Odoo resource.calendar with its hours). */
export const shiftTypes = defineResource({
  name: 'shift_type',
  path: 'shift-types',
  module: 'hr',
  description:
    'A working schedule: when the day starts and ends, its break, and how late an arrival may be before it counts as late.',
  fields: {
    code: code('DAY'),
    name: title('Day shift', { maxLength: 100 }),
    start_hour: hour('Start, in hours after midnight (8.5 is 08:30, as Odoo writes it).', '8.5'),
    end_hour: hour('End, in hours after midnight; before the start for a night shift.', '17'),
    break_minutes: integer({ min: 0, max: 720, example: 60 }),
    is_night_shift: boolean({ description: 'Ends the day after it starts.', example: false }),
    late_grace_minutes: integer({
      min: 0,
      max: 240,
      description: 'A check-in this long after the start is not late.',
      example: 10,
    }),
    early_exit_grace_minutes: integer({ min: 0, max: 240, example: 10 }),
    holiday_list_id: reference('holiday_list', {
      filterable: true,
      description: 'Days the shift is not worked.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
