import { defineResource } from '../../registry/define';
import { enumOf, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A trade term saying who pays transport and bears the risk (ERPNext Incoterm, Odoo account.incoterms, BC Shipment Method). */
export const incoterms = defineResource({
  name: 'incoterm',
  path: 'incoterms',
  module: 'purchasing',
  description:
    'An ICC Incoterms® rule (EXW, FCA, DAP, DDP…): where the risk passes from seller to buyer and who pays which costs.',
  fields: {
    code: code('FCA', { maxLength: 3, description: 'The three-letter rule.' }),
    name: title('Free Carrier', { maxLength: 100 }),
    edition: text({
      required: true,
      filterable: true,
      maxLength: 4,
      description: 'The Incoterms® edition the rule belongs to.',
      example: '2020',
    }),
    transport_mode: enumOf(['any', 'sea_and_inland_waterway'], {
      required: true,
      filterable: true,
      example: 'any',
    }),
    description: text({
      maxLength: 1000,
      description: 'Where the risk passes, and who pays transport and duties.',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
