import { defineResource } from '../../registry/define';
import { boolean, date, enumOf, money, reference, text } from '../../registry/fields';
import { customerReference, notes, stockLines } from '../field-sets';

/**
 * Goods a customer sends back, authorised first (RMA) (Business Central sales return order,
 * ERPNext Sales Return on a Delivery Note, Odoo rma / return picking).
 */
export const salesReturns = defineResource({
  name: 'sales_return',
  path: 'sales-returns',
  module: 'sales',
  description:
    'A return merchandise authorisation: what a customer sends back from a delivery, why, and how it is settled (refund, credit note, replacement, repair).',
  numbering: { prefix: 'RMA' },
  fields: {
    customer_id: customerReference(),
    sales_order_id: reference('sales_order', {
      filterable: true,
      description: 'The order the goods were sold on.',
    }),
    delivery_id: reference('delivery', {
      filterable: true,
      description: 'The delivery the goods came with.',
    }),
    return_date: date({
      required: true,
      filterable: true,
      sortable: true,
      description: 'Day the customer asked to return the goods.',
      example: '2026-04-02',
    }),
    reason: enumOf(
      [
        'damaged_in_transit',
        'defective',
        'wrong_item',
        'not_as_described',
        'no_longer_needed',
        'late_delivery',
        'other',
      ],
      { required: true, filterable: true, example: 'damaged_in_transit' },
    ),
    resolution: enumOf(['refund', 'credit_note', 'replacement', 'repair'], {
      required: true,
      filterable: true,
      description: 'How the return is settled.',
      example: 'credit_note',
    }),
    warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'Warehouse the goods come back to.',
    }),
    received_date: date({ filterable: true, description: 'Day the goods arrived back.' }),
    credit_note_id: reference('credit_note', {
      filterable: true,
      description: 'The credit note that settles it.',
    }),
    customer_reference: text({
      maxLength: 100,
      filterable: true,
      description: "The customer's own return reference.",
    }),
    lines: stockLines(
      {
        unit_price_cents: money({
          description: 'Price the unit was sold at: what is credited per unit.',
          example: 14900,
        }),
        condition: enumOf(['unopened', 'opened', 'damaged', 'defective'], {
          description: 'State of the goods as inspected on arrival.',
          example: 'damaged',
        }),
        restock: boolean({
          description: 'Whether the goods go back into sellable stock.',
          example: false,
        }),
      },
      { description: 'Products and quantities returned.' },
    ),
    notes: notes(),
  },
  stock: [
    {
      action: 'receive',
      date: 'return_date',
      lines: 'lines',
      from: 'outside',
      to: { warehouse: 'warehouse_id' },
      unless: 'restock',
      counterpart: { setting: 'cost_of_goods_sold' },
    },
  ],
  lifecycle: {
    initial: 'brouillon',
    actions: {
      approve: {
        from: ['brouillon'],
        to: 'approuve',
        description: 'Return authorised: the customer may send the goods.',
      },
      reject: {
        from: ['brouillon'],
        to: 'rejete',
        description: 'Return refused (out of the return period, used goods…).',
      },
      reopen: { from: ['rejete'], to: 'brouillon', description: 'Back to draft to be reviewed.' },
      receive: {
        from: ['approuve'],
        to: 'recu',
        description: 'The goods arrived back and were inspected.',
      },
      refund: {
        from: ['recu'],
        to: 'rembourse',
        description: 'Refunded or credited to the customer.',
      },
      complete: {
        from: ['recu'],
        to: 'termine',
        description: 'Replaced or repaired and sent back.',
      },
      cancel: {
        from: ['brouillon', 'approuve'],
        to: 'annule',
        description: 'The customer keeps the goods.',
      },
    },
  },
});
