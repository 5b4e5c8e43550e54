import { defineResource } from '../../registry/define';
import { text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** Why a deal was lost (Odoo crm.lost.reason, ERPNext Opportunity Lost Reason, Business Central close opportunity code). */
export const lostReasons = defineResource({
  name: 'lost_reason',
  path: 'lost-reasons',
  module: 'crm',
  description: 'A reason leads and opportunities are lost, for win/loss reports.',
  fields: {
    code: code('PRICE'),
    name: title('Price too high', { maxLength: 100 }),
    description: text({ maxLength: 1000 }),
  },
  lifecycle: lifecycles.archivable(),
});
