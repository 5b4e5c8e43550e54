import { defineResource } from '../../registry/define';
import {
  boolean,
  date,
  decimal,
  enumOf,
  integer,
  reference,
  text,
  timestamp,
} from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';

/** A day's presence with its check-in and check-out (Odoo hr.attendance, ERPNext Attendance and Employee Checkin). */
export const attendances = defineResource({
  name: 'attendance',
  path: 'attendances',
  module: 'hr',
  description:
    "An employee's presence on a day: when they checked in and out, and the hours worked; validated once checked.",
  fields: {
    employee_id: reference('employee', { required: true, filterable: true }),
    attendance_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-02',
    }),
    check_in: timestamp({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-02T08:02:00+01:00',
    }),
    check_out: timestamp({
      filterable: true,
      description: 'Empty while the employee is still in.',
      example: '2026-03-02T17:11:00+01:00',
    }),
    break_minutes: integer({ min: 0, max: 1440, example: 60 }),
    worked_hours: decimal({
      min: 0,
      max: 24,
      description: 'Check-out minus check-in, minus breaks.',
      example: '8.15',
    }),
    work_location: enumOf(['office', 'remote', 'client_site', 'business_trip'], {
      required: true,
      filterable: true,
      example: 'office',
    }),
    shift_type_id: reference('shift_type', { filterable: true }),
    is_late_entry: boolean({
      description: 'Checked in after the shift start and its grace period.',
      example: false,
    }),
    is_early_exit: boolean({
      description: 'Checked out before the shift end and its grace period.',
      example: false,
    }),
    source: enumOf(['manual', 'kiosk', 'badge_reader', 'mobile', 'api'], {
      filterable: true,
      description: 'Where the check-in was recorded.',
      example: 'badge_reader',
    }),
    notes: text({ maxLength: 1000 }),
  },
  lifecycle: lifecycles.validatable(),
});
