import { defineResource } from '../../registry/define';
import { boolean, decimal, enumOf, lines, reference } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { percent } from '../field-sets';

/** How a supplier is rated, how often, and what a low score blocks (ERPNext Supplier Scorecard). */
export const supplierScorecards = defineResource({
  name: 'supplier_scorecard',
  path: 'supplier-scorecards',
  module: 'purchasing',
  description:
    'The criteria and weights a supplier is evaluated on, how often, and the scores under which buyers are warned or orders blocked.',
  fields: {
    supplier_id: reference('supplier', { required: true, filterable: true }),
    evaluation_period: enumOf(['monthly', 'quarterly', 'half_yearly', 'yearly'], {
      required: true,
      filterable: true,
      example: 'quarterly',
    }),
    criteria: lines(
      {
        criterion_id: reference('scorecard_criterion', { required: true }),
        weight: percent({ required: true, example: '40' }),
      },
      { required: true, maxItems: 20, description: 'Weights add up to 100.' },
    ),
    warn_below_score: decimal({
      min: 0,
      max: 100,
      description: 'Buyers are warned when the last score is below.',
      example: '70',
    }),
    block_below_score: decimal({
      min: 0,
      max: 100,
      description: 'New orders are blocked when the last score is below.',
      example: '50',
    }),
    blocks_orders: boolean({
      required: true,
      description: 'Whether a score under `block_below_score` blocks new orders.',
      example: false,
    }),
  },
  lifecycle: lifecycles.archivable(),
});
