import type { ModuleName } from '@erp/contract';

/** How the pages name each module, and what it does in one line. */
export const MODULE_COPY: Record<ModuleName, { label: string; summary: string }> = {
  sales: {
    label: 'Sales',
    summary: 'Quotes, orders, deliveries, returns, price lists and promotions.',
  },
  purchasing: {
    label: 'Purchasing',
    summary: 'Requests, quotations, purchase orders, receipts and supplier scorecards.',
  },
  inventory: {
    label: 'Inventory',
    summary: 'Products, lots and serial numbers, stock moves, counts and reorder rules.',
  },
  accounting: {
    label: 'Accounting',
    summary: 'Accounts, fiscal years, bank statements, budgets and credit notes.',
  },
  crm: { label: 'CRM', summary: 'Leads, opportunities, campaigns and every customer activity.' },
  hr: { label: 'HR', summary: 'Employees, contracts, attendance, leave and expense reports.' },
  production: {
    label: 'Production',
    summary: 'Bills of materials, production orders, routings and quality checks.',
  },
  projects: {
    label: 'Projects',
    summary: 'Projects, milestones, budgets, risks and resource planning.',
  },
  assets: {
    label: 'Fixed assets',
    summary: 'Assets, depreciation schedules, leases, repairs and maintenance.',
  },
  support: {
    label: 'Support',
    summary: 'Service orders, SLA policies, a knowledge base and satisfaction ratings.',
  },
};
