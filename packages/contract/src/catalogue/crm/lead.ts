import { defineResource } from '../../registry/define';
import { email, enumOf, integer, money, reference, text, USER } from '../../registry/fields';
import { currency, notes } from '../field-sets';

/** A prospect before it becomes a customer (ERPNext Lead, Odoo crm.lead). */
export const leads = defineResource({
  name: 'lead',
  path: 'leads',
  module: 'crm',
  description: 'A prospect: someone who may buy, qualified then converted into a customer or lost.',
  fields: {
    title: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 200,
      description: 'What the opportunity is about.',
      example: 'Office furniture for the new Lyon site',
    }),
    contact_name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 200,
      example: 'Claire Martin',
    }),
    company_name: text({ filterable: true, maxLength: 200, example: 'Martin & Fils SARL' }),
    email: email({ filterable: true, example: 'claire.martin@example.com' }),
    phone: text({ maxLength: 50, example: '+33 4 72 00 00 00' }),
    source: enumOf(
      ['website', 'referral', 'campaign', 'cold_call', 'trade_show', 'partner', 'other'],
      { filterable: true, description: 'Where the lead came from.' },
    ),
    lead_source_id: reference('lead_source', {
      filterable: true,
      description: 'The source in detail; `source` repeats its channel.',
    }),
    campaign_id: reference('campaign', {
      filterable: true,
      description: 'The campaign it answered.',
    }),
    industry_id: reference('industry', { filterable: true }),
    sales_team_id: reference('sales_team', {
      filterable: true,
      description: 'The team it is assigned to.',
    }),
    expected_revenue_cents: money({
      min: 0,
      filterable: true,
      description: 'Estimated value of the deal, in minor units of `currency`.',
      example: 1250000,
    }),
    currency: currency(false),
    probability: integer({
      min: 0,
      max: 100,
      filterable: true,
      description: 'Chance of winning, in percent.',
      example: 40,
    }),
    owner_id: reference(USER, {
      filterable: true,
      description: 'The user following up on this lead.',
    }),
    city: text({ maxLength: 100, filterable: true }),
    country_code: text({ maxLength: 2, filterable: true, description: 'ISO 3166-1 alpha-2.' }),
    lost_reason_id: reference('lost_reason', {
      filterable: true,
      description: 'Why the lead was lost, as a reason of the list (set before `lose`).',
    }),
    lost_reason: text({
      maxLength: 500,
      description: 'Why the lead was lost (set before `lose`).',
    }),
    notes: notes(),
  },
  lifecycle: {
    initial: 'nouveau',
    editable: ['nouveau', 'qualifie'],
    actions: {
      qualify: {
        from: ['nouveau'],
        to: 'qualifie',
        description: 'The need and budget are confirmed.',
      },
      convert: { from: ['qualifie'], to: 'converti', description: 'The lead became a customer.' },
      lose: { from: ['nouveau', 'qualifie'], to: 'perdu', description: 'The lead will not buy.' },
    },
  },
  events: ['created'],
});
