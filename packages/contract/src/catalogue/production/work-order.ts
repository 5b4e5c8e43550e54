import { defineResource } from '../../registry/define';
import { decimal, integer, reference, text, timestamp, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** One operation of a production order on a work centre (Odoo mrp.workorder, ERPNext Job Card, BC Prod. Order Routing Line). */
export const workOrders = defineResource({
  name: 'work_order',
  path: 'work-orders',
  module: 'production',
  description:
    'One operation of a production order on a work centre: planned, started, paused, done, with its times and quantities.',
  numbering: { prefix: 'WO' },
  fields: {
    production_order_id: reference('production_order', { required: true, filterable: true }),
    routing_operation_id: reference('routing_operation', {
      filterable: true,
      description: 'The routing step it carries out.',
    }),
    work_center_id: reference('work_center', { required: true, filterable: true }),
    name: title('Mount the seat on the base', {
      maxLength: 200,
      description: 'The operation.',
    }),
    sequence: integer({
      required: true,
      min: 0,
      description: 'Order of the operation within its production order.',
      example: 10,
    }),
    quantity: decimal({
      required: true,
      min: 0,
      description: 'Quantity to process.',
      example: '50',
    }),
    quantity_produced: decimal({ min: 0, description: 'Good units done so far.', example: '48' }),
    quantity_scrapped: decimal({ min: 0, description: 'Units lost at this step.', example: '2' }),
    planned_start: timestamp({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-09T07:00:00+01:00',
    }),
    planned_end: timestamp({ filterable: true, example: '2026-03-09T13:30:00+01:00' }),
    actual_start: timestamp({ filterable: true }),
    actual_end: timestamp({ filterable: true }),
    expected_minutes: decimal({
      min: 0,
      description: 'Setup plus run time for the quantity, from the routing.',
      example: '345',
    }),
    actual_minutes: decimal({ min: 0, description: 'Time logged on it.', example: '360' }),
    operator_id: reference('employee', { filterable: true, description: 'Who does the work.' }),
    responsible_id: reference(USER, {
      filterable: true,
      description: 'The planner or supervisor in charge.',
    }),
    instructions: text({ maxLength: 5000 }),
  },
  lifecycle: lifecycles.schedulable(),
});
