import { defineResource } from '../../registry/define';
import { reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A sales area in a tree (ERPNext Territory, Business Central territory, Odoo sales team by country). */
export const territories = defineResource({
  name: 'territory',
  path: 'territories',
  module: 'crm',
  description:
    'A sales territory (a country, a region, a group of countries) in a tree, with its manager; customers, salespeople and targets belong to one.',
  fields: {
    code: code('FR-ARA'),
    name: title('Auvergne-Rhône-Alpes', { maxLength: 100 }),
    parent_id: reference('territory', { filterable: true }),
    country_code: text({
      maxLength: 2,
      filterable: true,
      description: 'ISO 3166-1 alpha-2 code, for a territory within one country.',
      example: 'FR',
    }),
    manager_id: reference(USER, { filterable: true, description: 'Who is responsible for it.' }),
  },
  lifecycle: lifecycles.archivable(),
});
