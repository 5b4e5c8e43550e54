import { defineResource } from '../../registry/define';
import { date, enumOf, lines, money, reference, text } from '../../registry/fields';
import { lifecycles, withActions } from '../../registry/lifecycles';
import { currency, notes } from '../field-sets';

/** A batch of transfers or direct debits sent to the bank as one file (ERPNext Payment Order, Odoo account.batch.payment with SEPA, BC payment journal export). */
export const paymentOrders = defineResource({
  name: 'payment_order',
  path: 'payment-orders',
  module: 'accounting',
  description:
    'A payment run: supplier bills to pay by SEPA credit transfer (or customer invoices to collect by direct debit), approved, then sent to the bank as one file.',
  numbering: { prefix: 'PMO' },
  fields: {
    bank_account_id: reference('bank_account', { required: true, filterable: true }),
    payment_type: enumOf(['sepa_credit_transfer', 'sepa_direct_debit', 'international_transfer'], {
      required: true,
      filterable: true,
      example: 'sepa_credit_transfer',
    }),
    execution_date: date({
      required: true,
      filterable: true,
      sortable: true,
      description: 'Day the bank is asked to execute it.',
      example: '2026-04-10',
    }),
    currency: currency(),
    total_amount_cents: money({
      required: true,
      filterable: true,
      min: 0,
      description: 'Sum of the lines, the control sum of the SEPA file.',
      example: 1_245_000,
    }),
    file_reference: text({
      maxLength: 35,
      filterable: true,
      description: 'Message id of the pain.001 / pain.008 file sent.',
    }),
    lines: lines(
      {
        supplier_id: reference('supplier', { description: 'Who is paid (credit transfer).' }),
        customer_id: reference('customer', { description: 'Who is debited (direct debit).' }),
        supplier_invoice_id: reference('supplier_invoice'),
        invoice_id: reference('invoice'),
        payment_id: reference('payment', { description: 'The payment it became.' }),
        iban: text({ required: true, maxLength: 34 }),
        amount_cents: money({ required: true, min: 1 }),
        remittance_information: text({
          maxLength: 140,
          description: 'Unstructured remittance text the beneficiary sees.',
          example: 'F-2026-0412',
        }),
      },
      { required: true, description: 'One transfer or debit per line.' },
    ),
    notes: notes(),
  },
  lifecycle: withActions(lifecycles.approvable(), {
    send: {
      from: ['approuve'],
      to: 'envoye',
      description: 'The file was sent to the bank.',
    },
    complete: {
      from: ['envoye'],
      to: 'termine',
      description: 'The bank executed every line.',
    },
  }),
});
