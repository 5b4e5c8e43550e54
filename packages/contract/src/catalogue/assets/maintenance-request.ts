import { defineResource } from '../../registry/define';
import { date, decimal, enumOf, money, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** A breakdown reported or a preventive job due on an asset (Odoo maintenance.request, ERPNext Asset Maintenance Log, BC service order). */
export const maintenanceRequests = defineResource({
  name: 'maintenance_request',
  path: 'maintenance-requests',
  module: 'assets',
  description:
    'A maintenance job on an asset: a breakdown reported (corrective) or a plan that fell due (preventive), handled by a team until closed.',
  numbering: { prefix: 'MNT' },
  fields: {
    subject: title('Fuite hydraulique sur la presse 2'),
    asset_id: reference('asset', { required: true, filterable: true }),
    request_type: enumOf(['corrective', 'preventive'], {
      required: true,
      filterable: true,
      example: 'corrective',
    }),
    priority: enumOf(['low', 'normal', 'high', 'urgent'], {
      required: true,
      filterable: true,
      example: 'high',
    }),
    maintenance_plan_id: reference('maintenance_plan', {
      filterable: true,
      description: 'The plan it was raised from (preventive).',
    }),
    maintenance_team_id: reference('maintenance_team', { filterable: true }),
    technician_id: reference('employee', { filterable: true }),
    requested_by_id: reference(USER, { filterable: true, description: 'Who reported it.' }),
    request_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-12' }),
    scheduled_date: date({ filterable: true, example: '2026-03-13' }),
    completed_on: date({ filterable: true }),
    duration_hours: decimal({ min: 0, description: 'Time spent.', example: '2.5' }),
    cost_cents: money({ min: 0, description: 'Labour and parts.', example: 38_000 }),
    description: text({ maxLength: 5000 }),
    resolution: text({ maxLength: 5000, fake: 'sentence', description: 'What was done.' }),
  },
  lifecycle: lifecycles.ticket(),
});
