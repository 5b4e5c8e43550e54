import { defineResource } from '../../registry/define';
import { date, enumOf, money, reference, text } from '../../registry/fields';

/** A customer's claim under warranty (ERPNext Warranty Claim, Odoo helpdesk repair/return, BC service order with warranty). */
export const warrantyClaims = defineResource({
  name: 'warranty_claim',
  path: 'warranty-claims',
  module: 'support',
  description:
    'A claim that a unit sold is faulty: accepted under warranty or refused, then resolved by repair, replacement or refund.',
  numbering: { prefix: 'WCL' },
  fields: {
    customer_id: reference('customer', { required: true, filterable: true }),
    contact_id: reference('contact', { filterable: true }),
    service_item_id: reference('service_item', {
      filterable: true,
      description: 'The unit claimed on.',
    }),
    product_id: reference('product', { required: true, filterable: true }),
    serial_number: text({
      maxLength: 64,
      filterable: true,
      fake: 'serial_number',
      example: 'SN-24-008812',
    }),
    invoice_id: reference('invoice', {
      filterable: true,
      description: 'The invoice that proves the purchase.',
    }),
    support_ticket_id: reference('support_ticket', {
      filterable: true,
      description: 'The ticket the claim came from.',
    }),
    claim_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-09' }),
    warranty_status: enumOf(['under_warranty', 'out_of_warranty', 'under_contract'], {
      required: true,
      filterable: true,
      description: 'Coverage on the claim date: the warranty, a service contract, or neither.',
      example: 'under_warranty',
    }),
    complaint: text({
      required: true,
      maxLength: 5000,
      description: 'The fault as the customer describes it.',
      example: 'Le moteur s’arrête après dix minutes de fonctionnement.',
    }),
    resolution_type: enumOf(['repair', 'replacement', 'refund', 'credit_note', 'no_fault_found'], {
      filterable: true,
      example: 'repair',
    }),
    resolution: text({ maxLength: 5000, description: 'What was done.' }),
    resolution_date: date({ filterable: true }),
    cost_cents: money({ min: 0, description: 'What the claim cost the tenant.', example: 12500 }),
    serial_number_id: reference('serial_number', {
      filterable: true,
      description: 'The serial number in stock records.',
    }),
  },
  lifecycle: {
    initial: 'nouveau',
    editable: ['nouveau', 'accepte'],
    actions: {
      accept: {
        from: ['nouveau'],
        to: 'accepte',
        description: 'Covered: the tenant will repair, replace or refund.',
      },
      refuse: {
        from: ['nouveau'],
        to: 'refuse',
        description: 'Not covered (out of warranty, misuse).',
      },
      resolve: { from: ['accepte'], to: 'resolu', description: 'Repaired, replaced or refunded.' },
      close: { from: ['resolu', 'refuse'], to: 'ferme', description: 'Closed for good.' },
    },
  },
});
