import { defineResource } from '../../registry/define';
import { date, integer, reference, text } from '../../registry/fields';
import { currency, notes, pricedLines } from '../field-sets';

/** A supplier's offer of prices and lead times (ERPNext Supplier Quotation, Odoo RFQ with vendor prices, BC Purchase Quote). */
export const supplierQuotations = defineResource({
  name: 'supplier_quotation',
  path: 'supplier-quotations',
  module: 'purchasing',
  description:
    "A supplier's priced offer, often in answer to a request for quotation; the accepted one becomes a purchase order.",
  numbering: { prefix: 'SQ' },
  fields: {
    supplier_id: reference('supplier', { required: true, filterable: true }),
    request_for_quotation_id: reference('request_for_quotation', { filterable: true }),
    quotation_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-02',
    }),
    valid_until: date({ filterable: true, example: '2026-04-01' }),
    supplier_reference: text({
      maxLength: 100,
      filterable: true,
      description: "The supplier's quotation number.",
      example: 'DEV-26-0318',
    }),
    currency: currency(),
    payment_term_id: reference('payment_term', { filterable: true }),
    incoterm_id: reference('incoterm', { filterable: true }),
    lines: pricedLines({
      lead_time_days: integer({ min: 0, max: 365, description: 'Days to deliver.', example: 10 }),
    }),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      accept: { from: ['brouillon'], to: 'accepte', description: 'We take the offer.' },
      refuse: { from: ['brouillon'], to: 'refuse', description: 'We decline the offer.' },
      expire: { from: ['brouillon'], to: 'expire', description: 'Its validity ended unanswered.' },
      cancel: { from: ['brouillon'], to: 'annule', description: 'Entered by mistake.' },
    },
  },
});
