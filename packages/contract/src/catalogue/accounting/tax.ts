import { VAT_CATEGORIES, VATEX_CODES } from '../../ledger/vat';
import { defineResource } from '../../registry/define';
import { enumOf, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, title } from '../field-sets';

/** A tax the tenant collects or pays (ERPNext Item Tax Template, Odoo account.tax, BC VAT posting setup). */
export const taxes = defineResource({
  name: 'tax',
  path: 'taxes',
  module: 'accounting',
  description: 'A tax (VAT on sales, VAT on purchases, withholding…) and where it is posted.',
  fields: {
    code: code('TVA-C', { description: 'The code printed on documents and returns.' }),
    name: title('TVA collectée'),
    scope: enumOf(['sales', 'purchases', 'both'], {
      required: true,
      filterable: true,
      example: 'sales',
    }),
    tax_kind: enumOf(['vat', 'withholding', 'excise', 'other'], {
      required: true,
      filterable: true,
      example: 'vat',
    }),
    account_id: reference('account', {
      filterable: true,
      description: 'The account the tax amounts are posted to.',
    }),
    vat_category: enumOf(VAT_CATEGORIES, {
      filterable: true,
      description:
        "EN 16931's VAT category (UNTDID 5305), what an e-invoice's VAT breakdown says: S standard rate, Z zero rated, E exempt, AE reverse charge, K intra-community supply, G export outside the EU, O outside the scope of VAT, L and M the Canary Islands' and Ceuta's taxes. Empty: S for a rate above 0, Z at 0.",
      example: 'S',
    }),
    vat_exemption_reason_code: enumOf(VATEX_CODES, {
      description:
        "Why a category that charges no VAT (E, AE, K, G, O) charges none: a code of the CEF VATEX list (`VATEX-EU-AE`, `VATEX-FR-FRANCHISE`…). Empty: the category's own (VATEX-EU-132 for E, VATEX-EU-AE for AE, VATEX-EU-IC for K, VATEX-EU-G for G, VATEX-EU-O for O).",
      example: 'VATEX-EU-AE',
    }),
    vat_exemption_reason: text({
      maxLength: 300,
      description:
        'The exemption as printed on the invoice (« Autoliquidation », « TVA non applicable, art. 293 B du CGI »).',
      example: 'Autoliquidation',
    }),
  },
  lifecycle: lifecycles.archivable(),
});
