import { defineResource } from '../../registry/define';
import { date, decimal, enumOf, reference, text } from '../../registry/fields';
import { notes, stockLines } from '../field-sets';

/** An order to make a product (ERPNext Work Order, Odoo mrp.production). */
export const productionOrders = defineResource({
  name: 'production_order',
  path: 'production-orders',
  module: 'production',
  description: 'An order to manufacture a quantity of a product: released, started, completed.',
  numbering: { prefix: 'MO' },
  fields: {
    product_id: reference('product', {
      required: true,
      filterable: true,
      description: 'The product made.',
    }),
    quantity: decimal({ required: true, min: 0, example: '50' }),
    unit_of_measure: text({ maxLength: 32, example: 'Unit' }),
    warehouse_id: reference('warehouse', {
      required: true,
      filterable: true,
      description: 'Warehouse the finished goods go to.',
    }),
    source_warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'Warehouse the components are taken from (defaults to `warehouse_id`).',
    }),
    sales_order_id: reference('sales_order', {
      filterable: true,
      description: 'The sales order this production is for, if made to order.',
    }),
    bom_id: reference('bill_of_materials', {
      filterable: true,
      description: 'The bill of materials its components come from.',
    }),
    routing_id: reference('routing', {
      filterable: true,
      description: 'The routing its work orders come from.',
    }),
    project_id: reference('project', {
      filterable: true,
      description: 'The project it is made for, when its costs are booked to one.',
    }),
    planned_start: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-09',
    }),
    planned_end: date({ filterable: true, example: '2026-03-13' }),
    priority: enumOf(['low', 'normal', 'high', 'urgent'], { filterable: true, example: 'normal' }),
    components: stockLines(
      {},
      { required: false, description: 'Components consumed (the bill of materials, scaled).' },
    ),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      release: {
        from: ['brouillon'],
        to: 'lance',
        description: 'Planned and released to the shop floor.',
      },
      start: { from: ['lance'], to: 'en_cours', description: 'Work has started.' },
      complete: { from: ['en_cours'], to: 'termine', description: 'The quantity was produced.' },
      cancel: { from: ['brouillon', 'lance'], to: 'annule', description: 'Will not be produced.' },
    },
  },
  events: ['created', 'status_changed'],
});
