import { defineResource } from '../../registry/define';
import { boolean, money } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, currency, title } from '../field-sets';

/** A kind of work and its hourly rates (ERPNext Activity Type, BC Work Type). */
export const activityTypes = defineResource({
  name: 'activity_type',
  path: 'activity-types',
  module: 'projects',
  description: 'A kind of work time is logged against, with its hourly billing and cost rates.',
  fields: {
    code: code('DEV'),
    name: title('Development', { maxLength: 100 }),
    billing_rate_cents: money({
      min: 0,
      description: 'Price of one hour to the customer, in minor units.',
      example: 9_500,
    }),
    costing_rate_cents: money({
      min: 0,
      description: 'Cost of one hour to the company, in minor units.',
      example: 5_200,
    }),
    currency: currency(),
    is_billable: boolean({
      required: true,
      filterable: true,
      description: 'Time of this kind is billed by default.',
      example: true,
    }),
  },
  lifecycle: lifecycles.archivable(),
});
