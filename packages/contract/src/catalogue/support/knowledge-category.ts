import { defineResource } from '../../registry/define';
import { integer, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A section of the help centre (ERPNext Help Category, Odoo knowledge parent article, website_helpdesk forum). */
export const knowledgeCategories = defineResource({
  name: 'knowledge_category',
  path: 'knowledge-categories',
  module: 'support',
  description: 'A section of the knowledge base, in a tree.',
  fields: {
    code: code('GETTING-STARTED'),
    name: title('Bien démarrer', { maxLength: 100 }),
    parent_id: reference('knowledge_category', { filterable: true }),
    sequence: integer({ min: 0, description: 'Order among its siblings.', example: 10 }),
    description: text({ maxLength: 2000 }),
  },
  lifecycle: lifecycles.archivable(),
});
