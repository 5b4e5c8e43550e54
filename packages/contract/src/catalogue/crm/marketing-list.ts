import { defineResource } from '../../registry/define';
import { boolean, enumOf, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** A list of people campaigns are sent to (Odoo mailing.list, ERPNext Email Group, Business Central segment). */
export const marketingLists = defineResource({
  name: 'marketing_list',
  path: 'marketing-lists',
  module: 'crm',
  description: 'A mailing list or segment of contacts, leads and customers that campaigns target.',
  fields: {
    name: title('Newsletter – office managers', { maxLength: 100 }),
    list_type: enumOf(['static', 'dynamic'], {
      required: true,
      filterable: true,
      description: 'static: members added one by one; dynamic: rebuilt from a saved filter.',
      example: 'static',
    }),
    is_public: boolean({
      required: true,
      filterable: true,
      description: 'People may subscribe themselves (newsletter form).',
      example: true,
    }),
    owner_id: reference(USER, { filterable: true }),
    description: text({ maxLength: 1000 }),
  },
  lifecycle: lifecycles.archivable(),
});
