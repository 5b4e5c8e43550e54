import { defineResource } from '../../registry/define';
import { date, integer, lines, money, reference } from '../../registry/fields';
import { currency, notes } from '../field-sets';

/** A reminder of overdue invoices sent to a customer (ERPNext Dunning, Odoo payment follow-up, BC issued reminder). */
export const paymentReminders = defineResource({
  name: 'payment_reminder',
  path: 'payment-reminders',
  module: 'accounting',
  description:
    "A dunning letter: a customer's overdue invoices at one dunning level, with fees and interest; sent, then settled once paid.",
  numbering: { prefix: 'DUN' },
  fields: {
    customer_id: reference('customer', { required: true, filterable: true }),
    dunning_level_id: reference('dunning_level', { required: true, filterable: true }),
    reminder_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-05-05',
    }),
    currency: currency(),
    amount_due_cents: money({
      required: true,
      filterable: true,
      min: 0,
      description: 'Sum of the amounts due of its lines, before fee and interest.',
      example: 178_800,
    }),
    fee_cents: money({ min: 0, description: 'Fee of the dunning level.', example: 4000 }),
    interest_cents: money({ min: 0, description: 'Late-payment interest charged.', example: 1250 }),
    lines: lines(
      {
        invoice_id: reference('invoice', { required: true }),
        due_date: date({ required: true }),
        amount_due_cents: money({ required: true, min: 0, description: 'Still owed on it.' }),
        days_overdue: integer({ required: true, min: 0, example: 21 }),
      },
      { required: true, description: 'The overdue invoices it reminds of.' },
    ),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      send: { from: ['brouillon'], to: 'envoye', description: 'Sent to the customer.' },
      settle: {
        from: ['envoye'],
        to: 'paye',
        description: 'The customer paid what it reminded of.',
      },
      cancel: {
        from: ['brouillon', 'envoye'],
        to: 'annule',
        description: 'Withdrawn (disputed, or paid before it was sent).',
      },
    },
  },
});
