import { accounts } from './account';
import { accountingPeriods } from './accounting-period';
import { bankAccounts } from './bank-account';
import { bankStatements } from './bank-statement';
import { bankTransactions } from './bank-transaction';
import { budgets } from './budget';
import { costCenters } from './cost-center';
import { creditNotes } from './credit-note';
import { currencies } from './currency';
import { debitNotes } from './debit-note';
import { dunningLevels } from './dunning-level';
import { exchangeRates } from './exchange-rate';
import { fiscalPositions } from './fiscal-position';
import { fiscalYears } from './fiscal-year';
import { invoices } from './invoice';
import { journals } from './journal';
import { journalEntries } from './journal-entry';
import { payments } from './payment';
import { paymentAllocations } from './payment-allocation';
import { paymentOrders } from './payment-order';
import { paymentReminders } from './payment-reminder';
import { paymentTerms } from './payment-term';
import { recurringEntries } from './recurring-entry';
import { supplierInvoices } from './supplier-invoice';
import { taxes } from './tax';
import { taxRates } from './tax-rate';
import { taxReturns } from './tax-return';

/** The accounting module's resources. */
export const accountingResources = [
  currencies,
  exchangeRates,
  paymentTerms,
  accounts,
  fiscalYears,
  accountingPeriods,
  costCenters,
  taxes,
  taxRates,
  fiscalPositions,
  journals,
  bankAccounts,
  invoices,
  creditNotes,
  supplierInvoices,
  debitNotes,
  payments,
  paymentAllocations,
  paymentOrders,
  journalEntries,
  recurringEntries,
  bankStatements,
  bankTransactions,
  budgets,
  dunningLevels,
  paymentReminders,
  taxReturns,
] as const;
