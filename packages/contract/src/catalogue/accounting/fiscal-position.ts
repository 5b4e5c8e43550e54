import { defineResource } from '../../registry/define';
import { boolean, enumOf, lines, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { notes, title } from '../field-sets';

/** Which taxes and accounts replace the usual ones for a kind of partner (Odoo account.fiscal.position, ERPNext Tax Rule, BC VAT business posting group). */
export const fiscalPositions = defineResource({
  name: 'fiscal_position',
  path: 'fiscal-positions',
  module: 'accounting',
  description:
    'A tax regime for partners outside the domestic one (intra-EU B2B reverse charge, exports): the taxes and accounts mapped to others.',
  fields: {
    name: title('Intra-EU B2B (autoliquidation)', { maxLength: 100 }),
    zone: enumOf(['domestic', 'eu', 'non_eu'], {
      required: true,
      filterable: true,
      description: 'Where the partner is: in the country, elsewhere in the EU, or outside it.',
      example: 'eu',
    }),
    country_code: text({
      maxLength: 2,
      filterable: true,
      description:
        'Applies only to partners in this country (ISO 3166-1 alpha-2); empty for the zone.',
      example: 'DE',
    }),
    vat_required: boolean({
      required: true,
      description: 'Applies only to partners with a VAT number (B2B).',
      example: true,
    }),
    auto_apply: boolean({
      required: true,
      description: 'Chosen from the partner’s country and VAT number without asking.',
      example: true,
    }),
    legal_mention: text({
      maxLength: 500,
      description: 'Printed on invoices.',
      example: 'Autoliquidation — article 196 de la directive 2006/112/CE',
    }),
    tax_mappings: lines(
      {
        source_tax_id: reference('tax', { required: true }),
        destination_tax_id: reference('tax', {
          description: 'The tax applied instead; empty: no tax.',
        }),
      },
      { required: true, maxItems: 100, description: 'Tax replaced → tax applied.' },
    ),
    account_mappings: lines(
      {
        source_account_id: reference('account', { required: true }),
        destination_account_id: reference('account', { required: true }),
      },
      { maxItems: 100, description: 'Account replaced → account used (706 → 7062 for exports).' },
    ),
    notes: notes(),
  },
  lifecycle: lifecycles.archivable(),
});
