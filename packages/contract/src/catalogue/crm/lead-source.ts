import { defineResource } from '../../registry/define';
import { enumOf } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** Where leads come from, in detail (ERPNext Lead Source, Odoo utm.source). */
export const leadSources = defineResource({
  name: 'lead_source',
  path: 'lead-sources',
  module: 'crm',
  description:
    'A named source of leads (the website form, a partner, a trade show, a directory…), grouped by the channel a lead records as its `source`.',
  fields: {
    code: code('WEB-FORM'),
    name: title('Website contact form', { maxLength: 100 }),
    channel: enumOf(
      ['website', 'referral', 'campaign', 'cold_call', 'trade_show', 'partner', 'other'],
      {
        required: true,
        filterable: true,
        description: 'The channel, as in a lead’s `source`.',
        example: 'website',
      },
    ),
  },
  lifecycle: lifecycles.archivable(),
});
