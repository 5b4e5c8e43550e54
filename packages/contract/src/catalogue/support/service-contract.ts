import { defineResource } from '../../registry/define';
import {
  boolean,
  decimal,
  enumOf,
  integer,
  lines,
  money,
  reference,
  text,
} from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes, period, title } from '../field-sets';

/** A support or maintenance agreement with a customer (BC Service Contract, ERPNext Maintenance Schedule / AMC, Odoo subscription of a service). */
export const serviceContracts = defineResource({
  name: 'service_contract',
  path: 'service-contracts',
  module: 'support',
  description:
    'A support or maintenance agreement with a customer: what it covers, its SLA, its price, while it is in force.',
  numbering: { prefix: 'SCT' },
  fields: {
    customer_id: reference('customer', { required: true, filterable: true }),
    contact_id: reference('contact', {
      filterable: true,
      description: 'The customer’s contact for the agreement.',
    }),
    name: title('Contrat de maintenance Premium', { maxLength: 200 }),
    contract_type: enumOf(['support', 'maintenance', 'extended_warranty', 'managed_service'], {
      required: true,
      filterable: true,
      example: 'maintenance',
    }),
    ...period(),
    sla_policy_id: reference('sla_policy', {
      filterable: true,
      description: 'The service levels promised.',
    }),
    billing_period: enumOf(['monthly', 'quarterly', 'yearly'], {
      required: true,
      filterable: true,
      example: 'yearly',
    }),
    price_cents: money({
      required: true,
      min: 0,
      description: 'Price per billing period, before tax.',
      example: 240000,
    }),
    currency: currency(),
    included_hours: decimal({
      min: 0,
      description: 'Hours of work included per billing period; beyond them work is billed.',
      example: '20',
    }),
    auto_renew: boolean({
      required: true,
      filterable: true,
      description: 'Renewed for the same length at its end unless terminated.',
      example: true,
    }),
    notice_days: integer({
      min: 0,
      max: 365,
      description: 'Notice needed to terminate it.',
      example: 60,
    }),
    covered_items: lines(
      {
        service_item_id: reference('service_item', { description: 'A unit covered.' }),
        product_id: reference('product', {
          description: 'A product covered (every unit of it the customer has).',
        }),
        description: text({ maxLength: 500 }),
      },
      { maxItems: 500, description: 'Units or products covered.' },
    ),
    notes: notes(),
  },
  lifecycle: lifecycles.agreement(),
});
