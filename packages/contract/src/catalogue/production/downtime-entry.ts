import { defineResource } from '../../registry/define';
import { boolean, decimal, enumOf, reference, text, timestamp } from '../../registry/fields';

/** Time a work centre did not produce (Odoo mrp.workcenter.productivity with its loss reasons, ERPNext Downtime Entry). */
export const downtimeEntries = defineResource({
  name: 'downtime_entry',
  path: 'downtime-entries',
  module: 'production',
  description:
    'A stop of a work centre, with its reason and duration: what overall equipment effectiveness is computed from.',
  fields: {
    work_center_id: reference('work_center', { required: true, filterable: true }),
    work_order_id: reference('work_order', {
      filterable: true,
      description: 'The work order interrupted, if any.',
    }),
    started_at: timestamp({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-10T09:40:00+01:00',
    }),
    ended_at: timestamp({
      filterable: true,
      description: 'Empty while the work centre is still down.',
      example: '2026-03-10T10:25:00+01:00',
    }),
    duration_minutes: decimal({ min: 0, example: '45' }),
    reason: enumOf(
      [
        'breakdown',
        'changeover',
        'material_shortage',
        'no_operator',
        'quality_issue',
        'planned_maintenance',
        'other',
      ],
      { required: true, filterable: true, example: 'breakdown' },
    ),
    loss_type: enumOf(['availability', 'performance', 'quality'], {
      required: true,
      filterable: true,
      description: 'The OEE factor it lowers.',
      example: 'availability',
    }),
    is_planned: boolean({
      required: true,
      filterable: true,
      description: 'Planned stops (maintenance, changeovers) are left out of availability.',
      example: false,
    }),
    reported_by_id: reference('employee', { filterable: true }),
    description: text({ maxLength: 2000 }),
  },
});
