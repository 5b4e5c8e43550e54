import { defineResource } from '../../registry/define';
import { text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { notes, title } from '../field-sets';

/** A company the tenant competes with for deals (ERPNext Competitor, Business Central competitor). */
export const competitors = defineResource({
  name: 'competitor',
  path: 'competitors',
  module: 'crm',
  description: 'A competitor met on deals, with what it is good and bad at.',
  fields: {
    name: title('Bureau Confort SAS', { fake: 'company' }),
    website: text({ maxLength: 200, example: 'https://bureau-confort.fr' }),
    country_code: text({ maxLength: 2, filterable: true, description: 'ISO 3166-1 alpha-2.' }),
    strengths: text({ maxLength: 2000, example: 'Low prices, large catalogue.' }),
    weaknesses: text({ maxLength: 2000, example: 'Long lead times, little after-sales service.' }),
    notes: notes(),
  },
  lifecycle: lifecycles.archivable(),
});
