import { defineResource } from '../../registry/define';
import { enumOf, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes, period, pricedLines } from '../field-sets';

/** A framework agreement: quantities and prices agreed for a period, called off by orders (Odoo purchase.requisition, ERPNext Blanket Order, BC Blanket Purchase Order). */
export const purchaseAgreements = defineResource({
  name: 'purchase_agreement',
  path: 'purchase-agreements',
  module: 'purchasing',
  description:
    'A blanket order (quantities at agreed prices over a period, called off by purchase orders) or a call for tenders to several suppliers.',
  numbering: { prefix: 'BPA' },
  fields: {
    agreement_type: enumOf(['blanket_order', 'call_for_tenders'], {
      required: true,
      filterable: true,
      example: 'blanket_order',
    }),
    supplier_id: reference('supplier', {
      filterable: true,
      description: 'The supplier bound by it; empty for a call for tenders.',
    }),
    buyer_id: reference(USER, { filterable: true }),
    ...period(),
    supplier_reference: text({ maxLength: 100, filterable: true, example: 'CTR-2026-014' }),
    currency: currency(),
    payment_term_id: reference('payment_term', { filterable: true }),
    incoterm_id: reference('incoterm', { filterable: true }),
    lines: pricedLines(
      {},
      { description: 'Products, quantities committed over the period and agreed prices.' },
    ),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: lifecycles.agreement(),
});
