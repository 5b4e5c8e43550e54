import { defineResource } from '../../registry/define';
import { date, enumOf, integer, money, reference, text, USER } from '../../registry/fields';
import { currency, notes, title } from '../field-sets';

/** A deal being pursued (ERPNext Opportunity, Odoo crm.lead of type opportunity, Business Central opportunity). */
export const opportunities = defineResource({
  name: 'opportunity',
  path: 'opportunities',
  module: 'crm',
  description:
    'A deal in the pipeline: who it is with, its stage, probability, expected revenue and close date, until it is won or lost.',
  numbering: { prefix: 'OPP' },
  fields: {
    title: title('Office furniture for the new Lyon site'),
    customer_id: reference('customer', {
      filterable: true,
      description: 'The customer; empty while the deal is with a lead.',
    }),
    lead_id: reference('lead', { filterable: true, description: 'The lead it came from.' }),
    contact_id: reference('contact', {
      filterable: true,
      description: 'The person the deal is discussed with.',
    }),
    owner_id: reference(USER, { filterable: true, description: 'The user pursuing the deal.' }),
    sales_team_id: reference('sales_team', { filterable: true }),
    pipeline_stage_id: reference('pipeline_stage', { required: true, filterable: true }),
    probability: integer({
      required: true,
      min: 0,
      max: 100,
      filterable: true,
      description: 'Chance of winning, in percent (the stage’s by default).',
      example: 50,
    }),
    expected_revenue_cents: money({
      min: 0,
      filterable: true,
      description: 'Value of the deal before tax, in minor units of `currency`.',
      example: 2_480_000,
    }),
    currency: currency(false),
    expected_close_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-04-30',
    }),
    closed_date: date({ filterable: true, description: 'Day it was won or lost.' }),
    priority: enumOf(['low', 'medium', 'high', 'very_high'], {
      filterable: true,
      example: 'high',
    }),
    campaign_id: reference('campaign', { filterable: true }),
    lead_source_id: reference('lead_source', { filterable: true }),
    competitor_id: reference('competitor', {
      filterable: true,
      description: 'The main competitor on the deal (who won it, if lost).',
    }),
    lost_reason_id: reference('lost_reason', {
      filterable: true,
      description: 'Why it was lost (set before `lose`).',
    }),
    next_step: text({
      maxLength: 500,
      description: 'What happens next.',
      example: 'Visit the site with the architect on 12 March.',
    }),
    notes: notes(),
  },
  lifecycle: {
    initial: 'en_cours',
    actions: {
      win: { from: ['en_cours'], to: 'gagne', description: 'The customer said yes.' },
      lose: { from: ['en_cours'], to: 'perdu', description: 'The deal went elsewhere or died.' },
      reopen: { from: ['perdu'], to: 'en_cours', description: 'The deal is alive again.' },
      cancel: {
        from: ['en_cours'],
        to: 'annule',
        description: 'Entered by mistake or a duplicate.',
      },
    },
  },
});
