import { defineResource } from '../../registry/define';
import { decimal, enumOf, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, percent, title } from '../field-sets';

/** A control to make, where and how often (Odoo quality.point, ERPNext Quality Inspection Template and parameters). */
export const qualityPoints = defineResource({
  name: 'quality_point',
  path: 'quality-points',
  module: 'production',
  description:
    'A quality control to make on a product at a stage (receipt, an operation, final), with its specification and frequency.',
  fields: {
    code: code('QP-SEAT-TORQUE'),
    name: title('Seat bolt torque', { maxLength: 200 }),
    product_id: reference('product', {
      filterable: true,
      description: 'The product checked; empty for every product of the operation.',
    }),
    routing_operation_id: reference('routing_operation', {
      filterable: true,
      description: 'The operation after which the check is made.',
    }),
    work_center_id: reference('work_center', { filterable: true }),
    inspection_stage: enumOf(['receipt', 'in_process', 'final', 'delivery'], {
      required: true,
      filterable: true,
      example: 'in_process',
    }),
    check_type: enumOf(['pass_fail', 'measurement', 'visual', 'instructions'], {
      required: true,
      filterable: true,
      description: 'measurement: a value compared with the norm and its tolerances.',
      example: 'measurement',
    }),
    norm: decimal({ description: 'Target value of a measurement.', example: '25' }),
    tolerance_min: decimal({ description: 'Lowest acceptable value.', example: '24' }),
    tolerance_max: decimal({ description: 'Highest acceptable value.', example: '26' }),
    measure_unit: text({ maxLength: 32, description: 'Unit of the norm.', example: 'N·m' }),
    frequency: enumOf(['every_unit', 'every_lot', 'random_sample', 'periodic'], {
      required: true,
      filterable: true,
      example: 'every_lot',
    }),
    sample_percent: percent({
      description: 'Share of units checked for a random sample.',
      example: '10',
    }),
    instructions: text({ maxLength: 5000, description: 'How to make the check.' }),
    responsible_id: reference(USER, {
      filterable: true,
      description: 'Quality officer in charge.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
