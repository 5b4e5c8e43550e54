import { defineResource } from '../../registry/define';
import { decimal, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, percent, title } from '../field-sets';

/** A measure suppliers are scored on (ERPNext Supplier Scorecard Criteria, BC vendor rating). */
export const scorecardCriteria = defineResource({
  name: 'scorecard_criterion',
  path: 'scorecard-criteria',
  module: 'purchasing',
  description:
    'A measure suppliers are scored on (deliveries on time, quality, price), with its maximum score and usual weight.',
  fields: {
    code: code('OTD'),
    name: title('Deliveries on time', { maxLength: 100 }),
    description: text({ maxLength: 2000, description: 'How the score is worked out.' }),
    max_score: decimal({ required: true, min: 0, example: '100' }),
    default_weight: percent({ description: 'Weight in a scorecard, in percent.', example: '30' }),
  },
  lifecycle: lifecycles.archivable(),
});
