import { defineResource } from '../../registry/define';
import { date, decimal, lines, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { percent, period } from '../field-sets';

const score = (description: string) => decimal({ min: 0, max: 5, description, example: '3.5' });

/** A performance review against goals (Odoo hr.appraisal, ERPNext Appraisal). */
export const appraisals = defineResource({
  name: 'appraisal',
  path: 'appraisals',
  module: 'hr',
  description:
    "A review of an employee's work over a period, goal by goal, with a score: planned, held, done.",
  numbering: { prefix: 'APR' },
  fields: {
    employee_id: reference('employee', { required: true, filterable: true }),
    reviewer_id: reference('employee', {
      filterable: true,
      description: 'Who conducts the review, usually the manager.',
    }),
    ...period(),
    meeting_date: date({ filterable: true, description: 'Day of the review meeting.' }),
    goals: lines(
      {
        goal: text({ required: true, maxLength: 500, example: 'Close the books within 5 days' }),
        weight: percent({ required: true, description: 'Share of the final score.' }),
        score: score('0 (not met) to 5 (far exceeded).'),
        comments: text({ maxLength: 2000 }),
      },
      { required: true, maxItems: 50, description: 'The goals reviewed and their scores.' },
    ),
    final_score: score('Weighted average of the goals’ scores, 0 to 5.'),
    strengths: text({ maxLength: 5000, fake: 'sentence' }),
    improvements: text({
      maxLength: 5000,
      fake: 'sentence',
      description: 'What to work on next period.',
    }),
  },
  lifecycle: lifecycles.schedulable(),
});
