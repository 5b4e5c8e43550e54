import { defineResource } from '../../registry/define';
import { reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A part of the organisation (ERPNext Department, Odoo hr.department). */
export const departments = defineResource({
  name: 'department',
  path: 'departments',
  module: 'hr',
  description: 'A department of the organisation, in a tree.',
  fields: {
    code: code('PUR'),
    name: title('Purchasing', { fake: 'department' }),
    parent_id: reference('department', { filterable: true }),
    cost_center_id: reference('cost_center', {
      filterable: true,
      description: 'Where its costs are reported.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
