import { defineResource } from '../../registry/define';
import { reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A line of business customers and leads are in (ERPNext Industry Type, Odoo res.partner.industry, Business Central industry group). */
export const industries = defineResource({
  name: 'industry',
  path: 'industries',
  module: 'crm',
  description:
    'An industry (line of business) for segmenting customers and leads, coded with the EU NACE classification.',
  fields: {
    code: code('C31', {
      maxLength: 16,
      description: 'NACE Rev. 2 code (section letter and division).',
    }),
    name: title('Manufacture of furniture'),
    parent_id: reference('industry', { filterable: true }),
  },
  lifecycle: lifecycles.archivable(),
});
