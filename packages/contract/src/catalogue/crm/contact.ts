import { defineResource } from '../../registry/define';
import { boolean, email, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';

/** A person at a customer or a supplier (ERPNext Contact, Odoo res.partner child, BC contact). */
export const contacts = defineResource({
  name: 'contact',
  path: 'contacts',
  module: 'crm',
  description: 'A person the tenant deals with at a customer or a supplier.',
  fields: {
    first_name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 100,
      example: 'Ana',
    }),
    last_name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 100,
      example: 'Duval',
    }),
    email: email({ filterable: true, example: 'ana.duval@martin.fr' }),
    phone: text({ maxLength: 50 }),
    mobile: text({ maxLength: 50 }),
    job_title: text({ maxLength: 100, filterable: true, example: 'Head of purchasing' }),
    customer_id: reference('customer', { filterable: true }),
    supplier_id: reference('supplier', { filterable: true }),
    is_primary: boolean({
      required: true,
      filterable: true,
      description: 'The first person to address at that company.',
      example: false,
    }),
  },
  lifecycle: lifecycles.archivable(),
});
