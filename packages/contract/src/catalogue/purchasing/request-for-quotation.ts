import { defineResource } from '../../registry/define';
import { date, email, lines, reference, text, USER } from '../../registry/fields';
import { notes, stockLines } from '../field-sets';

/** Suppliers asked to quote for a list of products (ERPNext Request for Quotation, Odoo RFQ, BC purchase quote request). */
export const requestsForQuotation = defineResource({
  name: 'request_for_quotation',
  path: 'requests-for-quotation',
  module: 'purchasing',
  description:
    'A request sent to one or more suppliers to quote prices and lead times for products; their answers are supplier quotations.',
  numbering: { prefix: 'RFQ' },
  fields: {
    purchase_request_id: reference('purchase_request', {
      filterable: true,
      description: 'The approved request it sources.',
    }),
    rfq_date: date({ required: true, filterable: true, sortable: true, example: '2026-02-26' }),
    response_due_date: date({
      filterable: true,
      description: 'Suppliers answer by this day.',
      example: '2026-03-06',
    }),
    warehouse_id: reference('warehouse', {
      filterable: true,
      description: 'Where the goods would be delivered.',
    }),
    buyer_id: reference(USER, { filterable: true }),
    suppliers: lines(
      {
        supplier_id: reference('supplier', { required: true }),
        contact_id: reference('contact', { description: 'Who at the supplier gets the request.' }),
        email: email({ description: 'Where the request is sent.' }),
      },
      { required: true, maxItems: 50, description: 'Suppliers asked to quote.' },
    ),
    lines: stockLines(
      { required_by: date() },
      { description: 'Products and quantities to quote.' },
    ),
    message_for_supplier: text({
      maxLength: 5000,
      example: 'Please quote your best price and lead time.',
    }),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      send: { from: ['brouillon'], to: 'envoye', description: 'Sent to the suppliers.' },
      close: {
        from: ['envoye'],
        to: 'ferme',
        description: 'Answers are in (or the deadline passed); no more quotations expected.',
      },
      cancel: {
        from: ['brouillon', 'envoye'],
        to: 'annule',
        description: 'Nothing will be bought.',
      },
    },
  },
});
