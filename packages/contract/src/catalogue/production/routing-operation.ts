import { defineResource } from '../../registry/define';
import { decimal, integer, reference, text } from '../../registry/fields';
import { title } from '../field-sets';

/** One step of a routing (BC Routing Line, ERPNext BOM/Routing operation, Odoo mrp.routing.workcenter). */
export const routingOperations = defineResource({
  name: 'routing_operation',
  path: 'routing-operations',
  module: 'production',
  description:
    'A step of a routing: what is done, on which work centre, and how long it takes to set up and run.',
  fields: {
    routing_id: reference('routing', { required: true, filterable: true }),
    sequence: integer({
      required: true,
      filterable: true,
      sortable: true,
      min: 0,
      description: 'Order of the step in the routing (10, 20, 30…).',
      example: 10,
    }),
    name: title('Mount the seat on the base', { maxLength: 200 }),
    work_center_id: reference('work_center', { required: true, filterable: true }),
    setup_minutes: decimal({
      required: true,
      min: 0,
      description: 'Time to prepare the work centre, once per work order.',
      example: '20',
    }),
    run_minutes: decimal({
      required: true,
      min: 0,
      description: 'Time to process one unit.',
      example: '6.5',
    }),
    wait_minutes: decimal({
      min: 0,
      description: 'Time the units wait after the step (drying, cooling) before the next one.',
      example: '0',
    }),
    batch_size: decimal({
      min: 0,
      description: 'Units processed together; the run time is per unit whatever the batch.',
      example: '1',
    }),
    instructions: text({ maxLength: 5000, description: 'Worksheet shown to the operator.' }),
  },
});
