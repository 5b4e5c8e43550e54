import { defineResource } from '../../registry/define';
import { reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** Where costs and income are reported (ERPNext Cost Center, Odoo analytic account, BC dimension value). */
export const costCenters = defineResource({
  name: 'cost_center',
  path: 'cost-centers',
  module: 'accounting',
  description: 'A unit of the business that costs and income are reported by.',
  fields: {
    code: code('CC-SALES'),
    name: title('Sales France', { fake: 'department' }),
    parent_id: reference('cost_center', {
      filterable: true,
      description: 'The group it rolls up to.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
