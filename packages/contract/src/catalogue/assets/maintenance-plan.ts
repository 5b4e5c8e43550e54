import { defineResource } from '../../registry/define';
import {
  boolean,
  date,
  decimal,
  enumOf,
  lines,
  money,
  reference,
  text,
} from '../../registry/fields';
import { notes, title } from '../field-sets';

/** Preventive maintenance repeated at a frequency (ERPNext Asset Maintenance and its tasks, Odoo preventive maintenance, BC service item maintenance). */
export const maintenancePlans = defineResource({
  name: 'maintenance_plan',
  path: 'maintenance-plans',
  module: 'assets',
  description:
    'Preventive maintenance of an asset, repeated at a frequency by a team, with its checklist; requests are raised from it when due.',
  fields: {
    name: title('Révision annuelle du chariot élévateur'),
    asset_id: reference('asset', { required: true, filterable: true }),
    maintenance_team_id: reference('maintenance_team', { filterable: true }),
    assigned_to_id: reference('employee', {
      filterable: true,
      description: 'The technician who usually does it.',
    }),
    maintenance_type: enumOf(['preventive', 'inspection', 'calibration', 'regulatory_check'], {
      required: true,
      filterable: true,
      description:
        'regulatory_check: a check the law requires (lifting gear, fire extinguishers…).',
      example: 'preventive',
    }),
    frequency: enumOf(['daily', 'weekly', 'monthly', 'quarterly', 'half_yearly', 'yearly'], {
      required: true,
      filterable: true,
      example: 'yearly',
    }),
    start_date: date({ required: true, filterable: true, sortable: true, example: '2026-01-15' }),
    end_date: date({ filterable: true }),
    next_due_date: date({ filterable: true, example: '2027-01-15' }),
    estimated_hours: decimal({ min: 0, example: '3.5' }),
    estimated_cost_cents: money({ min: 0, example: 45_000 }),
    checklist: lines(
      {
        task: text({ required: true, maxLength: 255, example: 'Contrôler les chaînes de levage' }),
        is_mandatory: boolean({ required: true, example: true }),
      },
      { maxItems: 100, description: 'What to do each time.' },
    ),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    editable: ['brouillon', 'actif', 'suspendu'],
    actions: {
      activate: { from: ['brouillon'], to: 'actif', description: 'Requests are raised when due.' },
      suspend: { from: ['actif'], to: 'suspendu', description: 'Paused (asset stored away).' },
      resume: { from: ['suspendu'], to: 'actif', description: 'Requests are raised again.' },
      end: {
        from: ['actif', 'suspendu'],
        to: 'termine',
        description: 'No longer needed (asset disposed of, contract ended).',
      },
      cancel: { from: ['brouillon'], to: 'annule', description: 'Never started.' },
    },
  },
});
