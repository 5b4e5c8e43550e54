import { defineResource } from '../../registry/define';
import { boolean, enumOf, reference } from '../../registry/fields';
import { addressFields } from '../field-sets';

/** A postal address of a customer or a supplier (ERPNext Address, Odoo res.partner of type invoice/delivery). */
export const addresses = defineResource({
  name: 'address',
  path: 'addresses',
  module: 'crm',
  description: 'A billing, shipping or other address of a customer or a supplier.',
  fields: {
    address_type: enumOf(['billing', 'shipping', 'office', 'other'], {
      required: true,
      filterable: true,
      example: 'shipping',
    }),
    customer_id: reference('customer', { filterable: true }),
    supplier_id: reference('supplier', { filterable: true }),
    ...addressFields(),
    is_default: boolean({
      required: true,
      filterable: true,
      description: 'The one used unless a document names another.',
      example: true,
    }),
  },
});
