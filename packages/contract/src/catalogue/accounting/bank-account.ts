import { defineResource } from '../../registry/define';
import { boolean, date, money, reference, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { currency, notes, title } from '../field-sets';

/** One of the tenant's own bank accounts (ERPNext Bank Account, Odoo res.partner.bank with its bank journal, BC bank account). */
export const bankAccounts = defineResource({
  name: 'bank_account',
  path: 'bank-accounts',
  module: 'accounting',
  description:
    "One of the company's bank accounts: its IBAN and BIC, the journal its transactions are recorded in and its ledger account.",
  fields: {
    name: title('BNP Paribas — compte courant', { maxLength: 100 }),
    bank_name: text({ required: true, filterable: true, maxLength: 100, example: 'BNP Paribas' }),
    iban: text({
      required: true,
      filterable: true,
      maxLength: 34,
      fake: 'iban',
      description: 'International Bank Account Number, without spaces.',
      example: 'FR7630004000031234567890143',
    }),
    bic: text({
      maxLength: 11,
      fake: 'bic',
      description: 'SWIFT/BIC of the bank.',
      example: 'BNPAFRPPXXX',
    }),
    account_holder: text({
      maxLength: 140,
      fake: 'company',
      description: 'Name on the account, as the bank knows it.',
    }),
    currency: currency(),
    journal_id: reference('journal', {
      filterable: true,
      description: 'The bank journal its transactions and payments are recorded in.',
    }),
    account_id: reference('account', {
      filterable: true,
      description: 'The ledger account that mirrors it (512…).',
    }),
    is_default: boolean({
      required: true,
      filterable: true,
      description: 'Printed on invoices and used for payments unless another is chosen.',
      example: true,
    }),
    overdraft_limit_cents: money({
      min: 0,
      description: 'Authorised overdraft, in minor units.',
      example: 1_000_000,
    }),
    opened_on: date({ filterable: true, example: '2019-09-01' }),
    notes: notes(),
  },
  lifecycle: lifecycles.archivable(),
});
