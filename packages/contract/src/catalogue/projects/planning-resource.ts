import { defineResource } from '../../registry/define';
import { decimal, enumOf, money, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, currency, title } from '../field-sets';

/** A person, machine or team whose time is planned and billed on projects (BC Resource, Odoo resource.resource). */
export const planningResources = defineResource({
  name: 'planning_resource',
  path: 'planning-resources',
  module: 'projects',
  description:
    'A person, machine or team whose time is planned on projects, with its capacity, cost and price.',
  fields: {
    code: code('R-CMARTIN'),
    name: title('Claire Martin', { maxLength: 100 }),
    resource_type: enumOf(['person', 'machine', 'team'], {
      required: true,
      filterable: true,
      example: 'person',
    }),
    employee_id: reference('employee', { filterable: true, description: 'The employee it is.' }),
    base_unit: enumOf(['hour', 'day'], {
      required: true,
      description: 'Unit its time is planned and priced in.',
      example: 'hour',
    }),
    unit_cost_cents: money({ min: 0, example: 5_200 }),
    unit_price_cents: money({ min: 0, example: 9_500 }),
    currency: currency(),
    weekly_capacity_hours: decimal({ min: 0, max: 168, example: '35' }),
    work_center_id: reference('work_center', {
      filterable: true,
      description: 'The work centre a machine resource is.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
