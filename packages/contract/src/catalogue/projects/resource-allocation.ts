import { defineResource } from '../../registry/define';
import { date, decimal, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { percent } from '../field-sets';

/** Time of a resource planned on a project (BC Job Planning Line of type resource, Odoo planning.slot). */
export const resourceAllocations = defineResource({
  name: 'resource_allocation',
  path: 'resource-allocations',
  module: 'projects',
  description: 'Hours of a resource planned on a project or task between two days.',
  fields: {
    project_id: reference('project', { required: true, filterable: true }),
    task_id: reference('task', { filterable: true }),
    planning_resource_id: reference('planning_resource', { required: true, filterable: true }),
    start_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-02' }),
    end_date: date({ required: true, filterable: true, example: '2026-03-13' }),
    planned_hours: decimal({ required: true, min: 0, max: 100_000, example: '60' }),
    allocation_percent: percent({
      description: 'Share of the resource’s capacity over those days.',
      example: '80',
    }),
    notes: text({ maxLength: 2000 }),
  },
  lifecycle: lifecycles.schedulable(),
});
