import { defineResource } from '../../registry/define';
import { enumOf, reference, text } from '../../registry/fields';
import { code, title } from '../field-sets';
import { certifiable } from './certifiable';

/** How a product is made, step by step (ERPNext Routing, BC Routing Header, Odoo BoM operations). */
export const routings = defineResource({
  name: 'routing',
  path: 'routings',
  module: 'production',
  description:
    'The sequence of operations that makes a product; its operations name the work centres and times.',
  fields: {
    code: code('RT-CHAIR-01'),
    name: title('Office chair assembly', { maxLength: 100 }),
    product_id: reference('product', {
      filterable: true,
      description: 'The product it makes; empty for a routing shared by several products.',
    }),
    revision: text({
      required: true,
      filterable: true,
      maxLength: 20,
      description: 'Revision label; a certified routing is changed through a new revision.',
      example: '2',
    }),
    routing_type: enumOf(['serial', 'parallel'], {
      required: true,
      filterable: true,
      description: 'serial: each operation waits for the previous one; parallel: they may overlap.',
      example: 'serial',
    }),
    description: text({ maxLength: 2000 }),
  },
  lifecycle: certifiable(),
});
