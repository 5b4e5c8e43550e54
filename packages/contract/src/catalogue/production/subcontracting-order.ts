import { defineResource } from '../../registry/define';
import { date, decimal, money, reference, text } from '../../registry/fields';
import { currency, notes, stockLines } from '../field-sets';

/** Work given to a supplier with the components it needs (ERPNext Subcontracting Order, Odoo subcontracting, BC subcontracting worksheet). */
export const subcontractingOrders = defineResource({
  name: 'subcontracting_order',
  path: 'subcontracting-orders',
  module: 'production',
  description:
    'An order to a subcontractor to make or finish a product from components sent to it: sent, then received back.',
  numbering: { prefix: 'SCO' },
  fields: {
    supplier_id: reference('supplier', {
      required: true,
      filterable: true,
      description: 'The subcontractor.',
    }),
    production_order_id: reference('production_order', {
      filterable: true,
      description: 'The production order the work is part of.',
    }),
    work_order_id: reference('work_order', {
      filterable: true,
      description: 'The operation subcontracted.',
    }),
    purchase_order_id: reference('purchase_order', {
      filterable: true,
      description: 'The purchase order the service is bought and invoiced through.',
    }),
    product_id: reference('product', {
      required: true,
      filterable: true,
      description: 'The product received back.',
    }),
    quantity: decimal({ required: true, min: 0, example: '100' }),
    unit_of_measure: text({ maxLength: 32, example: 'Unit' }),
    unit_price_cents: money({
      required: true,
      min: 0,
      description: 'Price of the service for one unit, before tax.',
      example: 450,
    }),
    currency: currency(),
    order_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-02' }),
    expected_date: date({ filterable: true, example: '2026-03-16' }),
    warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'Warehouse the products come back to.',
    }),
    supplied_components: stockLines(
      {},
      { required: false, description: 'Components sent to the subcontractor.' },
    ),
    supplier_reference: text({ maxLength: 100, filterable: true }),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      send: {
        from: ['brouillon'],
        to: 'envoye',
        description: 'Sent to the subcontractor with the components.',
      },
      receive: { from: ['envoye'], to: 'recu', description: 'The products came back.' },
      cancel: {
        from: ['brouillon', 'envoye'],
        to: 'annule',
        description: 'Void; components sent are returned.',
      },
    },
  },
});
