import { defineResource } from '../../registry/define';
import { date, reference, text } from '../../registry/fields';
import { title } from '../field-sets';

/** Something a project hands over to its customer for acceptance (PMBOK deliverable; BC job task of type posting, Odoo milestone deliverables). */
export const deliverables = defineResource({
  name: 'deliverable',
  path: 'deliverables',
  module: 'projects',
  description:
    'Something a project hands over (a document, a release, a report): produced, delivered, then accepted or refused by the customer.',
  fields: {
    project_id: reference('project', { required: true, filterable: true }),
    milestone_id: reference('milestone', { filterable: true }),
    name: title('Functional specifications v1'),
    due_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-31' }),
    delivered_on: date({ filterable: true }),
    accepted_on: date({ filterable: true }),
    acceptance_criteria: text({ maxLength: 5000, fake: 'sentence' }),
    description: text({ maxLength: 5000 }),
  },
  lifecycle: {
    initial: 'planifie',
    editable: ['planifie', 'en_cours', 'refuse'],
    actions: {
      start: { from: ['planifie'], to: 'en_cours', description: 'Being produced.' },
      deliver: { from: ['en_cours'], to: 'livre', description: 'Handed over to the customer.' },
      accept: { from: ['livre'], to: 'accepte', description: 'Accepted by the customer.' },
      refuse: { from: ['livre'], to: 'refuse', description: 'Refused by the customer.' },
      rework: { from: ['refuse'], to: 'en_cours', description: 'Being corrected.' },
      cancel: {
        from: ['planifie', 'en_cours'],
        to: 'annule',
        description: 'No longer to be delivered.',
      },
    },
  },
});
