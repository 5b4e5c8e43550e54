import { defineResource } from '../../registry/define';
import { boolean, decimal, enumOf, lines, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, period, title } from '../field-sets';

/** A training session and who attended it (ERPNext Training Event and Training Result, Odoo event for HR). */
export const trainingEvents = defineResource({
  name: 'training_event',
  path: 'training-events',
  module: 'hr',
  description:
    'A training session, its trainer and cost, and the employees who attended and passed.',
  fields: {
    name: title('GDPR awareness'),
    training_kind: enumOf(['internal', 'external', 'e_learning', 'certification', 'onboarding'], {
      required: true,
      filterable: true,
      example: 'external',
    }),
    skill_id: reference('skill', { filterable: true, description: 'The skill it teaches.' }),
    trainer_name: text({ maxLength: 200, fake: 'person_name' }),
    provider: text({ maxLength: 200, fake: 'company', description: 'The training company.' }),
    location: text({ maxLength: 200, example: 'Lyon, salle Rhône' }),
    ...period(),
    duration_hours: decimal({ min: 0, max: 10_000, example: '14' }),
    cost_cents: money({ min: 0, description: 'Total cost of the session.', example: 240_000 }),
    currency: currency(false),
    attendees: lines(
      {
        employee_id: reference('employee', { required: true }),
        attended: boolean({ example: true }),
        result: enumOf(['passed', 'failed', 'pending'], { example: 'passed' }),
        feedback: text({ maxLength: 2000 }),
      },
      { required: true, maxItems: 500, description: 'The employees enrolled and their result.' },
    ),
    description: text({ maxLength: 5000 }),
    supplier_id: reference('supplier', { filterable: true, description: 'The training provider.' }),
  },
  lifecycle: lifecycles.schedulable(),
});
