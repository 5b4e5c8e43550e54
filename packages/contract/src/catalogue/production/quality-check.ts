import { defineResource } from '../../registry/define';
import { decimal, enumOf, integer, reference, text, timestamp, USER } from '../../registry/fields';

/** One inspection and its result (Odoo quality.check, ERPNext Quality Inspection, BC quality measures). */
export const qualityChecks = defineResource({
  name: 'quality_check',
  path: 'quality-checks',
  module: 'production',
  description:
    'An inspection of a product or lot against a quality point: passed, failed, or reopened to inspect again.',
  numbering: { prefix: 'QC' },
  fields: {
    quality_point_id: reference('quality_point', {
      filterable: true,
      description: 'The control it carries out; empty for an ad hoc check.',
    }),
    product_id: reference('product', { required: true, filterable: true }),
    production_order_id: reference('production_order', { filterable: true }),
    work_order_id: reference('work_order', { filterable: true }),
    goods_receipt_id: reference('goods_receipt', {
      filterable: true,
      description: 'The receipt inspected, for a check at receipt.',
    }),
    lot_number: text({
      maxLength: 64,
      filterable: true,
      fake: 'code',
      description: 'Lot or serial number inspected.',
      example: 'LOT-2026-0201',
    }),
    inspection_stage: enumOf(['receipt', 'in_process', 'final', 'delivery'], {
      required: true,
      filterable: true,
      example: 'final',
    }),
    inspected_at: timestamp({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-03-13T15:20:00+01:00',
    }),
    inspector_id: reference(USER, { filterable: true }),
    sample_size: decimal({ min: 0, description: 'Units inspected.', example: '5' }),
    measured_value: decimal({ description: 'Value measured, for a measurement.', example: '25.3' }),
    defects_found: integer({ min: 0, example: 0 }),
    notes: text({ maxLength: 5000 }),
  },
  // ERPNext's Accepted / Rejected: a passed check approves the lot, a failed one rejects it.
  lifecycle: {
    initial: 'planifie',
    editable: ['planifie'],
    actions: {
      pass: {
        from: ['planifie'],
        to: 'approuve',
        description: 'Within specification: the lot is accepted.',
      },
      fail: {
        from: ['planifie'],
        to: 'rejete',
        description:
          'Out of specification: the lot is rejected (a quality alert or scrap follows).',
      },
      reopen: {
        from: ['approuve', 'rejete'],
        to: 'planifie',
        description: 'To be inspected again.',
      },
      cancel: { from: ['planifie'], to: 'annule', description: 'Will not be inspected.' },
    },
  },
});
