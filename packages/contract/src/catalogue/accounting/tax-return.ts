import { defineResource } from '../../registry/define';
import { date, enumOf, lines, money, reference, text } from '../../registry/fields';
import { currency, notes, period } from '../field-sets';

/** A VAT return for a period (BC VAT return, Odoo tax report / French CA3, ERPNext GST/VAT return). */
export const taxReturns = defineResource({
  name: 'tax_return',
  path: 'tax-returns',
  module: 'accounting',
  description:
    'A tax return (VAT, EC sales list) for a period: the boxes with their bases and taxes, the tax collected, the tax deductible and the net due; filed, then paid.',
  numbering: { prefix: 'VAT' },
  fields: {
    return_type: enumOf(['vat', 'ec_sales_list', 'other'], {
      required: true,
      filterable: true,
      description:
        'vat: the VAT return (France: CA3, CA12); ec_sales_list: intra-EU supplies (DES).',
      example: 'vat',
    }),
    frequency: enumOf(['monthly', 'quarterly', 'yearly'], {
      required: true,
      filterable: true,
      example: 'monthly',
    }),
    fiscal_year_id: reference('fiscal_year', { required: true, filterable: true }),
    accounting_period_id: reference('accounting_period', {
      filterable: true,
      description: 'The period declared, for a monthly return.',
    }),
    ...period(),
    filing_deadline: date({ filterable: true, example: '2026-04-24' }),
    currency: currency(),
    output_tax_cents: money({
      required: true,
      min: 0,
      description: 'Tax collected on sales in the period.',
      example: 842_000,
    }),
    input_tax_cents: money({
      required: true,
      min: 0,
      description: 'Tax deductible on purchases in the period.',
      example: 315_400,
    }),
    net_due_cents: money({
      required: true,
      filterable: true,
      description:
        'Collected minus deductible: positive is owed, negative a credit carried forward.',
      example: 526_600,
    }),
    filing_reference: text({
      maxLength: 100,
      filterable: true,
      description: 'Acknowledgement number the tax authority gave.',
    }),
    payment_id: reference('payment', {
      filterable: true,
      description: 'The payment of the tax due.',
    }),
    lines: lines(
      {
        box_code: text({
          required: true,
          maxLength: 10,
          description: 'Box of the official form (CA3: 08 sales at 20 %, 20 deductible VAT…).',
          example: '08',
        }),
        label: text({ maxLength: 255, example: 'Opérations imposables au taux normal 20 %' }),
        tax_id: reference('tax'),
        base_amount_cents: money({ required: true, description: 'Taxable base.' }),
        tax_amount_cents: money({ required: true, description: 'Tax on the base.' }),
      },
      { required: true, description: 'The boxes of the return.' },
    ),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    actions: {
      file: {
        from: ['brouillon'],
        to: 'envoye',
        description: 'Filed with the tax authority.',
      },
      pay: { from: ['envoye'], to: 'paye', description: 'The tax due was paid.' },
      cancel: { from: ['brouillon'], to: 'annule', description: 'Replaced before filing.' },
    },
  },
});
