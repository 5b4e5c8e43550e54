import { defineResource } from '../../registry/define';
import { decimal, enumOf, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, percent, title } from '../field-sets';

/** A machine, line or station where operations are done (Odoo mrp.workcenter, ERPNext Workstation, BC Work Center). */
export const workCenters = defineResource({
  name: 'work_center',
  path: 'work-centers',
  module: 'production',
  description:
    'A machine, line or manual station where routing operations are done, with its capacity and hourly cost.',
  fields: {
    code: code('CNC-01'),
    name: title('CNC milling centre 1', { maxLength: 100 }),
    work_center_type: enumOf(
      ['machine', 'assembly', 'manual', 'inspection', 'packaging', 'subcontractor'],
      {
        required: true,
        filterable: true,
        description: 'subcontractor: the operation is done by a supplier (BC subcontracting).',
        example: 'machine',
      },
    ),
    capacity: decimal({
      required: true,
      min: 0,
      description: 'Units it can work on at the same time.',
      example: '1',
    }),
    time_efficiency: decimal({
      min: 0,
      max: 1000,
      description: 'Speed against the routing’s standard times, in percent (120 is faster).',
      example: '100',
    }),
    oee_target: percent({
      description: 'Overall equipment effectiveness aimed at, in percent.',
      example: '85',
    }),
    cost_per_hour_cents: money({
      required: true,
      min: 0,
      filterable: true,
      description: 'Cost of one hour of work (machine and labour), in minor units.',
      example: 6500,
    }),
    setup_minutes: decimal({
      min: 0,
      description: 'Default time to prepare it before an operation.',
      example: '15',
    }),
    cleanup_minutes: decimal({
      min: 0,
      description: 'Default time to clean it after an operation.',
      example: '10',
    }),
    shop_calendar_id: reference('shop_calendar', {
      filterable: true,
      description: 'Its working hours; its capacity is counted on them.',
    }),
    warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'Where its components are staged and its output put.',
    }),
    cost_center_id: reference('cost_center', {
      filterable: true,
      description: 'Where its costs are reported.',
    }),
    description: text({ maxLength: 2000 }),
    asset_id: reference('asset', {
      filterable: true,
      description: 'The machine or line in the fixed-asset register.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
