import { defineResource } from '../../registry/define';
import { boolean, decimal, email, enumOf, reference, text } from '../../registry/fields';
import { addressFields, currency, notes, paymentTermsDays } from '../field-sets';

/** Someone the tenant buys from (ERPNext Supplier, Odoo res.partner with a supplier rank). */
export const suppliers = defineResource({
  name: 'supplier',
  path: 'suppliers',
  module: 'purchasing',
  description: 'A company or a person the tenant buys from.',
  fields: {
    name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 200,
      fake: 'company',
      example: 'Bureau Pro Distribution',
    }),
    supplier_type: enumOf(['company', 'individual'], { filterable: true, example: 'company' }),
    email: email({ filterable: true, example: 'ventes@bureaupro.fr' }),
    phone: text({ maxLength: 50 }),
    website: text({ maxLength: 200 }),
    vat_number: text({ maxLength: 32, filterable: true, example: 'FR83404833048' }),
    registration_number: text({ maxLength: 32, filterable: true }),
    supplier_group: text({ maxLength: 100, filterable: true, example: 'Raw materials' }),
    supplier_group_id: reference('supplier_group', {
      filterable: true,
      description: 'Its group (supersedes the free-text `supplier_group`).',
    }),
    ...addressFields(),
    currency: currency(false),
    payment_terms_days: paymentTermsDays(),
    payment_term_id: reference('payment_term', {
      filterable: true,
      description: 'Default payment term of its orders and bills.',
    }),
    payable_account_id: reference('account', {
      filterable: true,
      description: 'Where what is owed to it is posted (its group’s when empty).',
    }),
    is_on_hold: boolean({
      filterable: true,
      description: 'No new orders or payments until released (disputes, poor scores).',
      example: false,
    }),
    iban: text({ maxLength: 34, description: 'Bank account to pay into.' }),
    lead_time_days: decimal({ min: 0, description: 'Usual days between order and delivery.' }),
    notes: notes(),
  },
});
