import { defineResource } from '../../registry/define';
import { date, enumOf, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** A non-conformance to investigate and correct (Odoo quality.alert, ERPNext Non Conformance, BC quality issue). */
export const qualityAlerts = defineResource({
  name: 'quality_alert',
  path: 'quality-alerts',
  module: 'production',
  description:
    'A non-conformance found in production or at receipt: its cause, the corrective and preventive actions, until solved.',
  numbering: { prefix: 'NCR' },
  fields: {
    name: title('Seat bolts under torque on line 2', { maxLength: 200 }),
    description: text({ maxLength: 5000 }),
    product_id: reference('product', { filterable: true }),
    work_center_id: reference('work_center', { filterable: true }),
    production_order_id: reference('production_order', { filterable: true }),
    quality_check_id: reference('quality_check', {
      filterable: true,
      description: 'The failed check that raised it.',
    }),
    lot_number: text({ maxLength: 64, filterable: true, fake: 'code', example: 'LOT-2026-0201' }),
    priority: enumOf(['low', 'normal', 'high', 'urgent'], {
      required: true,
      filterable: true,
      example: 'high',
    }),
    root_cause: enumOf(
      ['material', 'machine', 'method', 'manpower', 'measurement', 'environment'],
      {
        filterable: true,
        description: 'Ishikawa category of the cause, once found.',
        example: 'machine',
      },
    ),
    corrective_action: text({ maxLength: 5000, description: 'What was done to fix it.' }),
    preventive_action: text({
      maxLength: 5000,
      description: 'What stops it from happening again.',
    }),
    responsible_id: reference(USER, { filterable: true }),
    deadline: date({ filterable: true, example: '2026-03-20' }),
  },
  lifecycle: lifecycles.ticket(),
});
