import { defineResource } from '../../registry/define';
import { date, reference, text } from '../../registry/fields';
import { currency, customerReference, notes, paymentTermsDays, pricedLines } from '../field-sets';

/** An offer sent to a customer (ERPNext Quotation, Odoo sale.order in state draft/sent). */
export const quotes = defineResource({
  name: 'quote',
  path: 'quotes',
  module: 'sales',
  description: 'A priced offer to a customer; once accepted it usually becomes a sales order.',
  numbering: { prefix: 'QT' },
  fields: {
    customer_id: customerReference(),
    lead_id: reference('lead', { filterable: true, description: 'The lead it answers.' }),
    opportunity_id: reference('opportunity', {
      filterable: true,
      description: 'The opportunity it answers.',
    }),
    salesperson_id: reference('salesperson', {
      filterable: true,
      description: 'Who is credited with the sale.',
    }),
    price_list_id: reference('price_list', {
      filterable: true,
      description: 'The list the line prices come from.',
    }),
    quote_date: date({ required: true, filterable: true, sortable: true, example: '2026-03-02' }),
    valid_until: date({
      filterable: true,
      description: 'The offer expires after this day.',
      example: '2026-04-01',
    }),
    currency: currency(),
    payment_terms_days: paymentTermsDays(),
    incoterm_id: reference('incoterm', { filterable: true }),
    lines: pricedLines(),
    terms: text({ maxLength: 5000, description: 'Terms and conditions printed on the quote.' }),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      send: {
        from: ['brouillon'],
        to: 'envoye',
        description: 'The quote was sent to the customer.',
      },
      accept: { from: ['envoye'], to: 'accepte', description: 'The customer accepted the offer.' },
      refuse: { from: ['envoye'], to: 'refuse', description: 'The customer declined the offer.' },
      cancel: {
        from: ['brouillon', 'envoye'],
        to: 'annule',
        description: 'Withdrawn by the seller.',
      },
    },
  },
  conversions: [
    {
      name: 'make_sales_order',
      target: 'sales_order',
      from: ['accepte'],
      link: 'quote_id',
      counts: 'ordered_quantity',
      countedBy: 'confirm',
      uncountedBy: 'cancel',
      today: ['order_date'],
    },
  ],
  events: ['created', 'status_changed'],
});
