import { defineResource } from '../../registry/define';
import { decimal, enumOf, integer, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/**
 * How goods are sent and what it costs the customer (Odoo delivery.carrier, Business Central
 * shipping agent and shipping agent services, ERPNext Shipping Rule).
 */
export const shippingMethods = defineResource({
  name: 'shipping_method',
  path: 'shipping-methods',
  module: 'sales',
  description:
    'A carrier service (Colissimo, DHL Express, pallet freight, pickup…) with its transit time, tracking link and the shipping charged to the customer.',
  fields: {
    code: code('DHL-EXP'),
    name: title('DHL Express Worldwide', { maxLength: 100 }),
    carrier_name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 100,
      description: 'The carrier, printed on delivery notes.',
      example: 'DHL Express',
    }),
    service_level: enumOf(['economy', 'standard', 'express', 'same_day', 'freight', 'pickup'], {
      required: true,
      filterable: true,
      example: 'express',
    }),
    pricing_method: enumOf(['fixed', 'by_weight', 'free', 'carrier_rate'], {
      required: true,
      filterable: true,
      description:
        'fixed: one price per shipment; by_weight: per kilogram; free: never charged; carrier_rate: the carrier’s quoted rate.',
      example: 'fixed',
    }),
    fixed_price_cents: money({
      min: 0,
      description: 'Charged per shipment (fixed pricing), in the company currency.',
      example: 1490,
    }),
    price_per_kg_cents: money({ min: 0, description: 'Charged per kilogram (by_weight pricing).' }),
    free_over_cents: money({
      min: 0,
      description: 'Orders above this amount before tax ship free.',
      example: 50_000,
    }),
    max_weight_kg: decimal({ min: 0, description: 'Heaviest parcel the service takes.' }),
    transit_days: integer({
      min: 0,
      max: 90,
      description: 'Usual days from shipment to delivery.',
      example: 1,
    }),
    tracking_url: text({
      maxLength: 500,
      description: 'Tracking link; {tracking_number} is replaced by the parcel’s number.',
      example: 'https://www.dhl.com/fr-fr/home/tracking.html?tracking-id={tracking_number}',
    }),
    product_id: reference('product', {
      filterable: true,
      description: 'The service product the shipping line is invoiced with.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
