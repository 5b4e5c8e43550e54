import { defineResource } from '../../registry/define';
import { date, enumOf, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

const level = <const V extends readonly [string, ...string[]]>(values: V, example: V[number]) =>
  enumOf(values, { required: true, filterable: true, example });

/** A risk of a project's risk register, with its mitigation (PMBOK risk register; BC and ERPNext keep them as project notes). */
export const projectRisks = defineResource({
  name: 'project_risk',
  path: 'project-risks',
  module: 'projects',
  description:
    'Something that may go wrong on a project: how likely, how bad, who watches it and what is done about it.',
  fields: {
    project_id: reference('project', { required: true, filterable: true }),
    name: title('Key developer leaves mid-project'),
    category: level(
      ['technical', 'schedule', 'budget', 'resource', 'legal', 'external'],
      'resource',
    ),
    probability: level(['low', 'medium', 'high'], 'medium'),
    impact: level(['low', 'medium', 'high', 'critical'], 'high'),
    owner_id: reference(USER, { filterable: true, description: 'Who watches the risk.' }),
    identified_on: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-02-10',
    }),
    review_date: date({ filterable: true, description: 'Next time it is looked at.' }),
    mitigation: text({
      maxLength: 5000,
      fake: 'sentence',
      description: 'What is done to make it less likely.',
    }),
    contingency: text({
      maxLength: 5000,
      fake: 'sentence',
      description: 'What is done if it happens.',
    }),
    description: text({ maxLength: 5000 }),
  },
  lifecycle: lifecycles.ticket(),
});
