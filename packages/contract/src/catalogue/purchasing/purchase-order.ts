import { defineResource } from '../../registry/define';
import { date, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes, paymentTermsDays, pricedLines } from '../field-sets';

/** An order to a supplier, approved before it is sent (ERPNext/Odoo Purchase Order). */
export const purchaseOrders = defineResource({
  name: 'purchase_order',
  path: 'purchase-orders',
  module: 'purchasing',
  description:
    'An order to a supplier: submitted for approval, approved or rejected, sent, then received.',
  numbering: { prefix: 'PO' },
  fields: {
    supplier_id: reference('supplier', { required: true, filterable: true }),
    order_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-02' }),
    expected_date: date({
      filterable: true,
      description: 'Date the goods are expected.',
      example: '2026-03-16',
    }),
    warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'Warehouse the goods are delivered to.',
    }),
    supplier_reference: text({
      maxLength: 100,
      filterable: true,
      description: "The supplier's quotation or order confirmation number.",
    }),
    buyer_id: reference(USER, { filterable: true, description: 'The buyer in charge.' }),
    purchase_request_id: reference('purchase_request', {
      filterable: true,
      description: 'The internal request it fulfils.',
    }),
    supplier_quotation_id: reference('supplier_quotation', {
      filterable: true,
      description: 'The accepted quotation it was made from.',
    }),
    purchase_agreement_id: reference('purchase_agreement', {
      filterable: true,
      description: 'The blanket order it calls off.',
    }),
    payment_term_id: reference('payment_term', { filterable: true }),
    incoterm_id: reference('incoterm', { filterable: true }),
    currency: currency(),
    payment_terms_days: paymentTermsDays(),
    lines: pricedLines(),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: lifecycles.approvable({
    submit: {
      emits: 'approval_requested',
      description: 'Asks an approver to approve the order.',
    },
    approve: { emits: 'approved', description: 'The order may be sent.' },
    reject: { emits: 'rejected', description: 'The order may not be sent as it is.' },
    afterApproval: {
      send: { from: ['approuve'], to: 'envoye', description: 'Sent to the supplier.' },
      receive: {
        from: ['envoye'],
        to: 'recu',
        description:
          'A shortcut: makes a goods receipt of every goods line that remains and validates it (the order becomes `recu` when all its goods are received).',
        shortcut: { conversion: 'make_goods_receipt', runs: 'validate' },
      },
    },
    cancel: {
      from: ['brouillon', 'en_attente_approbation', 'approuve'],
      to: 'annule',
      description: 'Void; nothing was sent to the supplier.',
    },
  }),
  conversions: [
    {
      name: 'make_goods_receipt',
      target: 'goods_receipt',
      from: ['envoye', 'recu'],
      link: 'purchase_order_id',
      counts: 'received_quantity',
      countedBy: 'validate',
      goods: true,
      today: ['received_on'],
    },
    {
      name: 'make_supplier_invoice',
      target: 'supplier_invoice',
      from: ['envoye', 'recu'],
      link: 'purchase_order_id',
      counts: 'billed_quantity',
      countedBy: 'approve',
      uncountedBy: 'cancel',
      today: ['invoice_date'],
      due: { field: 'due_date', days: 'payment_terms_days' },
    },
  ],
  progress: [{ status: 'recu', after: 'envoye', when: 'received_quantity', goods: true }],
  events: ['created', 'status_changed', 'approval_requested', 'approved', 'rejected'],
});
