import { defineResource } from '../../registry/define';
import { date, enumOf, reference, text, USER } from '../../registry/fields';
import { percent, title } from '../field-sets';

/** A dated status report on a project (Odoo project.update, ERPNext Project Update). */
export const projectUpdates = defineResource({
  name: 'project_update',
  path: 'project-updates',
  module: 'projects',
  description: 'A status report on a project at a date: on track or not, how far along, why.',
  fields: {
    project_id: reference('project', { required: true, filterable: true }),
    name: title('Week 12: beta on track'),
    update_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-20' }),
    health: enumOf(['on_track', 'at_risk', 'off_track', 'on_hold', 'done'], {
      required: true,
      filterable: true,
      example: 'on_track',
    }),
    progress: percent({ description: 'Share of the project done, in percent.', example: '45' }),
    author_id: reference(USER, { filterable: true }),
    description: text({ maxLength: 10_000 }),
  },
});
