import { defineResource } from '../../registry/define';
import { date, enumOf, reference, text } from '../../registry/fields';
import { currency, notes, pricedLines } from '../field-sets';

/** Goods sent back to a supplier (BC Purchase Return Order, ERPNext Purchase Receipt return, Odoo return picking). */
export const purchaseReturns = defineResource({
  name: 'purchase_return',
  path: 'purchase-returns',
  module: 'purchasing',
  description:
    'Goods sent back to their supplier (damaged, defective, wrong, too many), valued at the order price for the credit expected.',
  numbering: { prefix: 'RTV' },
  fields: {
    supplier_id: reference('supplier', { required: true, filterable: true }),
    purchase_order_id: reference('purchase_order', { filterable: true }),
    goods_receipt_id: reference('goods_receipt', {
      filterable: true,
      description: 'The receipt the goods came in on.',
    }),
    warehouse_id: reference('warehouse', {
      required: true,
      filterable: true,
      description: 'Warehouse the goods leave from.',
    }),
    location_id: reference('stock_location', { filterable: true }),
    return_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-20' }),
    reason: enumOf(['damaged', 'defective', 'wrong_item', 'excess_quantity', 'expired', 'other'], {
      required: true,
      filterable: true,
      example: 'damaged',
    }),
    rma_number: text({
      maxLength: 100,
      filterable: true,
      description: "The supplier's return authorisation number.",
      example: 'RMA-558210',
    }),
    currency: currency(),
    lines: pricedLines({ lot_id: reference('lot') }),
    notes: notes(),
  },
  totalsFrom: 'lines',
  stock: [
    {
      action: 'ship',
      date: 'return_date',
      lines: 'lines',
      from: { warehouse: 'warehouse_id', location: 'location_id' },
      to: 'outside',
      counterpart: { setting: 'stock_received_not_billed' },
    },
  ],
  lifecycle: {
    initial: 'brouillon',
    actions: {
      confirm: {
        from: ['brouillon'],
        to: 'confirme',
        description: 'The supplier agreed to take the goods back.',
      },
      ship: { from: ['confirme'], to: 'expedie', description: 'The goods left for the supplier.' },
      refund: {
        from: ['expedie'],
        to: 'rembourse',
        description: 'The supplier credited or refunded their value.',
      },
      cancel: { from: ['brouillon', 'confirme'], to: 'annule', description: 'Nothing goes back.' },
    },
  },
});
