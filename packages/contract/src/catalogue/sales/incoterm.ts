import { defineResource } from '../../registry/define';
import { enumOf, integer, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/**
 * An ICC Incoterms® rule: who pays transport and bears the risk (Odoo account.incoterms,
 * ERPNext Incoterm, Business Central shipment method).
 */
export const incoterms = defineResource({
  name: 'incoterm',
  path: 'incoterms',
  module: 'sales',
  description:
    'An Incoterms rule (EXW, FCA, DAP, DDP…) printed on quotes, orders and delivery notes: where costs and risk pass from seller to buyer.',
  fields: {
    code: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 3,
      description: 'The three-letter ICC code.',
      example: 'DAP',
    }),
    name: title('Delivered at Place', { maxLength: 100 }),
    edition: integer({
      required: true,
      filterable: true,
      min: 1936,
      max: 2100,
      description: 'Incoterms edition the rule belongs to.',
      example: 2020,
    }),
    transport_mode: enumOf(['any', 'sea_and_inland_waterway'], {
      required: true,
      filterable: true,
      description: 'Transport the rule is meant for (FAS, FOB, CFR and CIF: sea only).',
      example: 'any',
    }),
    risk_transfer: text({
      maxLength: 500,
      description: 'Where the risk passes to the buyer.',
      example: 'When the goods are ready for unloading at the named place of destination.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
