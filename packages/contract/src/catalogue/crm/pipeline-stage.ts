import { defineResource } from '../../registry/define';
import { boolean, integer, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { percent, title } from '../field-sets';

/** A step of the sales pipeline (Odoo crm.stage, ERPNext Sales Stage, Business Central sales cycle stage). */
export const pipelineStages = defineResource({
  name: 'pipeline_stage',
  path: 'pipeline-stages',
  module: 'crm',
  description:
    'A stage opportunities move through (qualified, proposal, negotiation, won), in order, with the probability of winning at that stage; a team may have its own.',
  fields: {
    name: title('Proposal sent', { maxLength: 100 }),
    sequence: integer({
      required: true,
      filterable: true,
      sortable: true,
      min: 0,
      description: 'Position in the pipeline, lowest first.',
      example: 30,
    }),
    probability: percent({
      required: true,
      description: 'Default chance of winning an opportunity at this stage, in percent.',
      example: '50',
    }),
    is_won: boolean({
      required: true,
      filterable: true,
      description: 'Opportunities at this stage are won.',
      example: false,
    }),
    sales_team_id: reference('sales_team', {
      filterable: true,
      description: "The team whose pipeline it belongs to; empty: every team's.",
    }),
    requirements: text({
      maxLength: 1000,
      description: 'What must be true to move an opportunity into this stage.',
      example: 'Budget confirmed and a written proposal sent.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
