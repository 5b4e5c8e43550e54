import { defineResource } from '../registry/define';
import { boolean, email, enumOf, integer, money, reference, text, USER } from '../registry/fields';
import { addressFields, currency, notes, paymentTermsDays } from './field-sets';

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
  events: { created: true },
});

/** Someone the tenant sells to (ERPNext Customer, Odoo res.partner with a customer rank). */
export const customers = defineResource({
  name: 'customer',
  path: 'customers',
  module: 'crm',
  description: 'A company or a person the tenant sells to, with billing details and terms.',
  fields: {
    name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 200,
      description: 'Company name, or full name of an individual.',
      example: 'Martin & Fils SARL',
    }),
    customer_type: enumOf(['company', 'individual'], {
      required: true,
      filterable: true,
      example: 'company',
    }),
    email: email({ filterable: true, description: 'Billing e-mail.', example: 'compta@martin.fr' }),
    phone: text({ maxLength: 50, example: '+33 4 72 00 00 00' }),
    website: text({ maxLength: 200, example: 'https://martin.fr' }),
    vat_number: text({
      maxLength: 32,
      filterable: true,
      description: 'Intra-community VAT or tax identification number.',
      example: 'FR40303265045',
    }),
    registration_number: text({
      maxLength: 32,
      filterable: true,
      description: 'Company registration number (SIRET, Companies House number…).',
    }),
    customer_group: text({
      maxLength: 100,
      filterable: true,
      description: 'Segment used for pricing and reporting.',
      example: 'Wholesale',
    }),
    ...addressFields(),
    currency: currency(false),
    payment_terms_days: paymentTermsDays(),
    credit_limit_cents: money({ min: 0, description: 'Most that may be owed at once.' }),
    lead_id: reference('lead', {
      filterable: true,
      description: 'The lead it was converted from.',
    }),
    active: boolean({
      required: true,
      filterable: true,
      description: 'False archives the customer: kept for history, not offered for new documents.',
      example: true,
    }),
    notes: notes(),
  },
});
