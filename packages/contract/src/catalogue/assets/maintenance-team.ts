import { defineResource } from '../../registry/define';
import { email, enumOf, lines, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** The people who service assets (Odoo maintenance.team, ERPNext Asset Maintenance Team). */
export const maintenanceTeams = defineResource({
  name: 'maintenance_team',
  path: 'maintenance-teams',
  module: 'assets',
  description: 'A team that services and repairs assets: its leader and members.',
  fields: {
    name: title('Maintenance atelier Lyon', { maxLength: 100 }),
    leader_id: reference('employee', { filterable: true }),
    department_id: reference('department', { filterable: true }),
    email: email({ description: 'Where requests are sent.', example: 'maintenance@example.com' }),
    members: lines(
      {
        employee_id: reference('employee', { required: true }),
        role: enumOf(['technician', 'supervisor', 'contractor'], {
          required: true,
          example: 'technician',
        }),
      },
      { required: true, maxItems: 100, description: 'Who is in the team.' },
    ),
  },
  lifecycle: lifecycles.archivable(),
});
