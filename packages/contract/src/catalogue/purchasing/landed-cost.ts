import { defineResource } from '../../registry/define';
import { date, enumOf, lines, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes } from '../field-sets';

/** Freight, insurance and duties added to the cost of received goods (ERPNext Landed Cost Voucher, Odoo stock.landed.cost, BC item charge). */
export const landedCosts = defineResource({
  name: 'landed_cost',
  path: 'landed-costs',
  module: 'purchasing',
  description:
    'Costs of bringing goods in (freight, insurance, customs duties) spread over the receipts they belong to, raising the value of the stock.',
  numbering: { prefix: 'LC' },
  fields: {
    cost_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-18' }),
    distribution_method: enumOf(['by_quantity', 'by_value', 'by_weight', 'by_volume', 'equal'], {
      required: true,
      filterable: true,
      description: 'How the charges are shared between the receipts’ lines.',
      example: 'by_value',
    }),
    currency: currency(),
    supplier_invoice_id: reference('supplier_invoice', {
      filterable: true,
      description: "The carrier's or customs broker's bill.",
    }),
    receipts: lines(
      { goods_receipt_id: reference('goods_receipt', { required: true }) },
      { required: true, maxItems: 50, description: 'Receipts the charges are spread over.' },
    ),
    charges: lines(
      {
        charge_type: enumOf(
          ['freight', 'insurance', 'customs_duty', 'handling', 'storage', 'other'],
          {
            required: true,
            example: 'freight',
          },
        ),
        description: text({ maxLength: 500, example: 'Road freight Milan → Lyon' }),
        supplier_id: reference('supplier', { description: 'Who charges it.' }),
        account_id: reference('account', { description: 'Where it is posted until absorbed.' }),
        amount_cents: money({ required: true, min: 0, example: 48000 }),
      },
      { required: true, maxItems: 50, description: 'The costs added.' },
    ),
    notes: notes(),
    journal_entry_id: reference('journal_entry', {
      filterable: true,
      description: 'The entry that posted the costs to stock.',
    }),
  },
  lifecycle: lifecycles.validatable(),
});
