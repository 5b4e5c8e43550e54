import { defineResource } from '../../registry/define';
import { enumOf, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { addressFields, code, title } from '../field-sets';

/** Where assets are (ERPNext Location, BC FA location, Odoo maintenance equipment location). */
export const assetLocations = defineResource({
  name: 'asset_location',
  path: 'asset-locations',
  module: 'assets',
  description:
    'A place assets are kept, in a tree: a site, a building, a floor, a room; optionally a warehouse.',
  fields: {
    code: code('PAR-HQ-3'),
    name: title('Siège Paris — 3e étage', { maxLength: 100 }),
    location_type: enumOf(['site', 'building', 'floor', 'room', 'vehicle', 'external'], {
      required: true,
      filterable: true,
      description: 'external: at a customer, a repairer or an employee working from home.',
      example: 'floor',
    }),
    parent_id: reference('asset_location', {
      filterable: true,
      description: 'The place it is part of.',
    }),
    warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'The warehouse it is, when assets are kept in one.',
    }),
    responsible_id: reference('employee', {
      filterable: true,
      description: 'Who answers for the assets there.',
    }),
    ...addressFields(),
  },
  lifecycle: lifecycles.archivable(),
});
