import { defineResource } from '../../registry/define';
import {
  boolean,
  date,
  decimal,
  enumOf,
  money,
  reference,
  text,
  timestamp,
  USER,
} from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { notes, title } from '../field-sets';

/** Maintenance of a work centre (Odoo maintenance.request on a work centre, ERPNext Maintenance Visit, BC machine centre maintenance). */
export const workCenterMaintenance = defineResource({
  name: 'work_center_maintenance',
  path: 'work-center-maintenance',
  module: 'production',
  description:
    'Preventive or corrective maintenance of a work centre: planned, done, and the time it takes the work centre out of production.',
  numbering: { prefix: 'WCM' },
  fields: {
    work_center_id: reference('work_center', { required: true, filterable: true }),
    name: title('Spindle lubrication', { maxLength: 200 }),
    maintenance_type: enumOf(['preventive', 'corrective', 'calibration', 'inspection'], {
      required: true,
      filterable: true,
      example: 'preventive',
    }),
    scheduled_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-14',
    }),
    planned_hours: decimal({ min: 0, description: 'Expected duration.', example: '2' }),
    started_at: timestamp({ filterable: true }),
    ended_at: timestamp({ filterable: true }),
    stops_work_center: boolean({
      required: true,
      filterable: true,
      description: 'The work centre has no capacity while it lasts.',
      example: true,
    }),
    technician_id: reference('employee', { filterable: true }),
    responsible_id: reference(USER, { filterable: true }),
    cost_cents: money({ min: 0, description: 'Parts and labour.', example: 18000 }),
    downtime_entry_id: reference('downtime_entry', {
      filterable: true,
      description: 'The stop it caused, for a corrective maintenance.',
    }),
    description: text({ maxLength: 5000 }),
    notes: notes(),
  },
  lifecycle: lifecycles.schedulable(),
});
