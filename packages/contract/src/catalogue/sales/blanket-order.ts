import { defineResource } from '../../registry/define';
import { date, decimal, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, customerReference, notes, pricedLines } from '../field-sets';

/**
 * A framework agreement: quantities and prices agreed for a period, called off by sales orders
 * (Business Central blanket sales order, ERPNext Blanket Order, Odoo sale blanket order).
 */
export const blanketOrders = defineResource({
  name: 'blanket_order',
  path: 'blanket-orders',
  module: 'sales',
  description:
    'A blanket order: the quantities a customer commits to over a period at agreed prices, delivered through sales orders that call them off.',
  numbering: { prefix: 'BO' },
  fields: {
    customer_id: customerReference(),
    customer_reference: text({
      maxLength: 100,
      filterable: true,
      description: "The customer's framework contract number.",
      example: 'CA-2026-014',
    }),
    order_date: date({ required: true, filterable: true, sortable: true, example: '2026-01-12' }),
    start_date: date({ required: true, filterable: true, sortable: true, example: '2026-02-01' }),
    end_date: date({ required: true, filterable: true, example: '2027-01-31' }),
    price_list_id: reference('price_list', {
      filterable: true,
      description: 'The list the agreed prices come from.',
    }),
    payment_term_id: reference('payment_term', { filterable: true }),
    currency: currency(),
    lines: pricedLines({
      called_off_quantity: decimal({
        min: 0,
        description: 'Quantity already ordered through sales orders.',
        example: '40',
      }),
    }),
    terms: text({ maxLength: 5000, description: 'Terms of the agreement.' }),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: lifecycles.agreement(),
});
