import { defineResource } from '../../registry/define';
import { boolean, email, enumOf, money, reference, text } from '../../registry/fields';
import { addressFields, currency, notes, paymentTermsDays } from '../field-sets';

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
      fake: 'company',
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
    customer_group_id: reference('customer_group', {
      filterable: true,
      description: 'The customer group; `customer_group` repeats its name.',
    }),
    price_list_id: reference('price_list', {
      filterable: true,
      description: "The list the customer buys at; empty: its group's.",
    }),
    territory_id: reference('territory', { filterable: true }),
    industry_id: reference('industry', { filterable: true }),
    salesperson_id: reference('salesperson', {
      filterable: true,
      description: 'The account manager.',
    }),
    ...addressFields(),
    currency: currency(false),
    payment_terms_days: paymentTermsDays(),
    payment_term_id: reference('payment_term', {
      filterable: true,
      description: 'The payment term; `payment_terms_days` repeats its net days.',
    }),
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
    receivable_account_id: reference('account', {
      filterable: true,
      description: 'The receivable account its invoices are posted to (default: 411000).',
    }),
  },
});
