import { defineResource } from '../../registry/define';
import { decimal, reference, text, timestamp, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { addressFields, notes, stockLines } from '../field-sets';

/** A repair or intervention at a customer's (BC Service Order, ERPNext Maintenance Visit, Odoo field service task). */
export const serviceOrders = defineResource({
  name: 'service_order',
  path: 'service-orders',
  module: 'support',
  description:
    'A repair or an intervention on a customer’s unit, scheduled for a technician, with the parts and hours it took.',
  numbering: { prefix: 'SVO' },
  fields: {
    customer_id: reference('customer', { required: true, filterable: true }),
    contact_id: reference('contact', { filterable: true }),
    service_item_id: reference('service_item', {
      filterable: true,
      description: 'The unit worked on.',
    }),
    support_ticket_id: reference('support_ticket', { filterable: true }),
    service_contract_id: reference('service_contract', {
      filterable: true,
      description: 'The agreement it is done under (then not billed beyond it).',
    }),
    fault_description: text({
      required: true,
      maxLength: 5000,
      example: 'Fuite d’huile au niveau du vérin principal.',
    }),
    technician_id: reference(USER, { filterable: true }),
    scheduled_start: timestamp({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-11T08:30:00+01:00',
    }),
    scheduled_end: timestamp({ filterable: true, example: '2026-03-11T12:00:00+01:00' }),
    actual_start: timestamp({ filterable: true }),
    actual_end: timestamp({ filterable: true }),
    labour_hours: decimal({ min: 0, example: '3.5' }),
    parts: stockLines({}, { required: false, description: 'Spare parts used.' }),
    ...addressFields('site'),
    resolution: text({ maxLength: 5000 }),
    notes: notes(),
  },
  lifecycle: lifecycles.schedulable(),
});
