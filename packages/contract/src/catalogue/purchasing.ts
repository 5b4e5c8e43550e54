import { defineResource } from '../registry/define';
import { date, decimal, email, enumOf, reference, text } from '../registry/fields';
import {
  addressFields,
  currency,
  notes,
  paymentTermsDays,
  pricedLines,
  stockLines,
} from './field-sets';

/** Someone the tenant buys from (ERPNext Supplier, Odoo res.partner with a supplier rank). */
export const suppliers = defineResource({
  name: 'supplier',
  path: 'suppliers',
  module: 'purchasing',
  description: 'A company or a person the tenant buys from.',
  fields: {
    name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 200,
      example: 'Bureau Pro Distribution',
    }),
    supplier_type: enumOf(['company', 'individual'], { filterable: true, example: 'company' }),
    email: email({ filterable: true, example: 'ventes@bureaupro.fr' }),
    phone: text({ maxLength: 50 }),
    website: text({ maxLength: 200 }),
    vat_number: text({ maxLength: 32, filterable: true, example: 'FR83404833048' }),
    registration_number: text({ maxLength: 32, filterable: true }),
    supplier_group: text({ maxLength: 100, filterable: true, example: 'Raw materials' }),
    ...addressFields(),
    currency: currency(false),
    payment_terms_days: paymentTermsDays(),
    iban: text({ maxLength: 34, description: 'Bank account to pay into.' }),
    lead_time_days: decimal({ min: 0, description: 'Usual days between order and delivery.' }),
    notes: notes(),
  },
});

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
    currency: currency(),
    payment_terms_days: paymentTermsDays(),
    lines: pricedLines(),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      submit: {
        from: ['brouillon'],
        to: 'en_attente_approbation',
        emits: 'approval_requested',
        description: 'Asks an approver to approve the order.',
      },
      approve: {
        from: ['en_attente_approbation'],
        to: 'approuve',
        emits: 'approved',
        description: 'The order may be sent.',
      },
      reject: {
        from: ['en_attente_approbation'],
        to: 'rejete',
        emits: 'rejected',
        description: 'The order may not be sent as it is.',
      },
      send: { from: ['approuve'], to: 'envoye', description: 'Sent to the supplier.' },
      receive: { from: ['envoye'], to: 'recu', description: 'The goods arrived.' },
      reopen: { from: ['rejete'], to: 'brouillon', description: 'Back to draft to be corrected.' },
      cancel: {
        from: ['brouillon', 'en_attente_approbation', 'approuve'],
        to: 'annule',
        description: 'Void; nothing was sent to the supplier.',
      },
    },
  },
  events: { created: true, statusChanged: true },
});

/** Goods received against a purchase order (ERPNext Purchase Receipt, Odoo incoming picking). */
export const goodsReceipts = defineResource({
  name: 'goods_receipt',
  path: 'goods-receipts',
  module: 'purchasing',
  description: 'What arrived from a supplier, into which warehouse, for a purchase order.',
  numbering: { prefix: 'GR' },
  fields: {
    purchase_order_id: reference('purchase_order', { required: true, filterable: true }),
    supplier_id: reference('supplier', { required: true, filterable: true }),
    warehouse_id: reference('warehouse', {
      required: true,
      filterable: true,
      description: 'Warehouse the goods were put in.',
    }),
    received_on: date({ required: true, filterable: true, sortable: true, example: '2026-03-16' }),
    supplier_delivery_note: text({
      maxLength: 100,
      filterable: true,
      description: "The number on the supplier's delivery note.",
    }),
    lines: stockLines({
      rejected_quantity: decimal({ min: 0, description: 'Part of the quantity refused.' }),
      lot_number: text({ maxLength: 100, description: 'Batch or lot of the goods.' }),
    }),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      validate: { from: ['brouillon'], to: 'valide', description: 'The goods are in stock.' },
      cancel: { from: ['brouillon'], to: 'annule', description: 'Recorded by mistake.' },
    },
  },
  events: { created: true, statusChanged: true },
});
