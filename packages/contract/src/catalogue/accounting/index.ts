import { creditNotes } from './credit-note';
import { invoices } from './invoice';
import { payments } from './payment';
import { supplierInvoices } from './supplier-invoice';

/** The accounting module's resources. */
export const accounting = [invoices, creditNotes, supplierInvoices, payments] as const;
