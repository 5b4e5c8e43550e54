import type { Resource } from '../registry/define';
import { creditNotes, invoices, payments, supplierInvoices } from './accounting';
import { customers, leads } from './crm';
import { employees, expenseReports } from './hr';
import { products, warehouses } from './inventory';
import { productionOrders } from './production';
import { goodsReceipts, purchaseOrders, suppliers } from './purchasing';
import { deliveries, quotes, salesOrders } from './sales';

/**
 * The product's business resources, in dependency order (referenced ones first), so tables
 * can be created in this order and dropped in reverse.
 */
export const catalogue: Resource[] = [
  products,
  warehouses,
  leads,
  customers,
  suppliers,
  employees,
  quotes,
  salesOrders,
  deliveries,
  invoices,
  creditNotes,
  purchaseOrders,
  goodsReceipts,
  supplierInvoices,
  payments,
  productionOrders,
  expenseReports,
];
