import { defineResource } from '../../registry/define';
import { decimal, enumOf, lines, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { notes, percent, period } from '../field-sets';

/** A supplier's scores for one period (ERPNext Supplier Scorecard Period, Odoo/OCA supplier evaluation). */
export const supplierEvaluations = defineResource({
  name: 'supplier_evaluation',
  path: 'supplier-evaluations',
  module: 'purchasing',
  description:
    "A supplier's scores on its scorecard's criteria for one period, their weighted total and the standing it earns.",
  numbering: { prefix: 'SEV' },
  fields: {
    supplier_scorecard_id: reference('supplier_scorecard', { required: true, filterable: true }),
    supplier_id: reference('supplier', { required: true, filterable: true }),
    ...period(),
    evaluator_id: reference(USER, { filterable: true }),
    scores: lines(
      {
        criterion_id: reference('scorecard_criterion', { required: true }),
        weight: percent({ required: true, example: '40' }),
        score: decimal({ required: true, min: 0, max: 100, example: '92' }),
        comment: text({ maxLength: 1000 }),
      },
      { required: true, maxItems: 20, description: 'One score per criterion of the scorecard.' },
    ),
    total_score: decimal({
      min: 0,
      max: 100,
      filterable: true,
      description: 'The weighted sum of the scores.',
      example: '84.5',
    }),
    standing: enumOf(['excellent', 'good', 'average', 'poor', 'very_poor'], {
      filterable: true,
      example: 'good',
    }),
    notes: notes(),
  },
  lifecycle: lifecycles.validatable(),
});
