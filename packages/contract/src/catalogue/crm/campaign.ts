import { defineResource } from '../../registry/define';
import { enumOf, money, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, period, title } from '../field-sets';

/** A marketing campaign (ERPNext Campaign, Odoo utm.campaign and marketing campaigns, Business Central campaign). */
export const campaigns = defineResource({
  name: 'campaign',
  path: 'campaigns',
  module: 'crm',
  description:
    'A marketing campaign (mailing, trade show, webinar, advertising…) for a period, with its budget, its cost and the revenue it should bring; leads and opportunities name the campaign they came from.',
  numbering: { prefix: 'CMP' },
  fields: {
    name: title('Salon Bureaux Expo 2026'),
    campaign_type: enumOf(
      [
        'email',
        'event',
        'webinar',
        'advertising',
        'social_media',
        'direct_mail',
        'trade_show',
        'telemarketing',
      ],
      { required: true, filterable: true, example: 'trade_show' },
    ),
    ...period(),
    owner_id: reference(USER, { filterable: true, description: 'Who runs the campaign.' }),
    marketing_list_id: reference('marketing_list', {
      filterable: true,
      description: 'The people it targets.',
    }),
    currency: currency(false),
    budget_cents: money({ min: 0, description: 'Planned spend.', example: 1_500_000 }),
    actual_cost_cents: money({ min: 0, description: 'Spent so far.', example: 1_320_000 }),
    expected_revenue_cents: money({
      min: 0,
      description: 'Revenue it should bring.',
      example: 12_000_000,
    }),
    description: text({ maxLength: 5000 }),
  },
  lifecycle: lifecycles.schedulable(),
});
