import { accounts } from './account';
import { costCenters } from './cost-center';
import { creditNotes } from './credit-note';
import { currencies } from './currency';
import { exchangeRates } from './exchange-rate';
import { fiscalYears } from './fiscal-year';
import { invoices } from './invoice';
import { payments } from './payment';
import { paymentTerms } from './payment-term';
import { supplierInvoices } from './supplier-invoice';
import { taxes } from './tax';
import { taxRates } from './tax-rate';

/** The accounting module's resources. */
export const accountingResources = [
  currencies,
  exchangeRates,
  paymentTerms,
  accounts,
  fiscalYears,
  costCenters,
  taxes,
  taxRates,
  invoices,
  creditNotes,
  supplierInvoices,
  payments,
] as const;
