import { mirrorPosting, purchasePosting } from '../../ledger/postings';
import { defineResource } from '../../registry/define';
import { date, enumOf, reference, text } from '../../registry/fields';
import { currency, exchangeRate, notes, pricedLines } from '../field-sets';

/** What the tenant claims back from a supplier on a bill (ERPNext Debit Note, Odoo in_refund, BC purchase credit memo). */
export const debitNotes = defineResource({
  name: 'debit_note',
  path: 'debit-notes',
  module: 'accounting',
  description:
    'A debit note to a supplier: reduces what the tenant owes on a supplier invoice (goods returned, overcharge).',
  numbering: { prefix: 'DBN' },
  fields: {
    supplier_id: reference('supplier', { required: true, filterable: true }),
    supplier_invoice_id: reference('supplier_invoice', {
      filterable: true,
      description:
        "The bill it corrects; empty: a credit on the supplier's account, settled against its bills by allocations (an imported credit note that names no bill of ours).",
    }),
    debit_note_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-04-02',
    }),
    reason: enumOf(['return', 'damaged_goods', 'pricing_error', 'short_delivery', 'other'], {
      required: true,
      filterable: true,
      example: 'return',
    }),
    supplier_reference: text({
      maxLength: 100,
      filterable: true,
      description: 'The number of the credit note the supplier issues in return.',
      example: 'AV-2026-0088',
    }),
    journal_id: reference('journal', { filterable: true, description: 'Purchases journal.' }),
    currency: currency(),
    exchange_rate: exchangeRate(),
    lines: pricedLines(),
    notes: notes(),
  },
  totalsFrom: 'lines',
  lifecycle: {
    initial: 'brouillon',
    actions: {
      issue: {
        from: ['brouillon'],
        to: 'emis',
        description: 'Sent to the supplier: posts the mirror of a supplier invoice.',
      },
      cancel: {
        from: ['brouillon', 'emis', 'partiellement_paye'],
        to: 'annule',
        description: 'Void; an issued debit note is reversed in the ledger.',
      },
    },
    settlement: { from: 'emis', partial: 'partiellement_paye', full: 'impute' },
  },
  postings: [
    mirrorPosting(
      purchasePosting({
        action: 'issue',
        reverse: 'cancel',
        date: 'debit_note_date',
        link: { source_type: 'debit_note' },
      }),
      {},
    ),
  ],
});
