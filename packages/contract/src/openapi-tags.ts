import { MODULES, type ModuleName, resourceTag } from './modules';
import type { Resource } from './registry/define';

/** The documents the contract is cut into: the platform (access, settings, system) and each module. */
export const API_DOCUMENTS = ['platform', ...MODULES] as const;
export type ApiDocumentName = (typeof API_DOCUMENTS)[number];

/** One tag of the document, as declared in its global `tags`. */
export interface TagDeclaration {
  name: string;
  description: string;
  /** The name a reader sees (Scalar's `x-displayName`), when the tag's own reads badly. */
  'x-displayName'?: string;
}

/**
 * A group of tags (`x-tagGroups`): one per document, so the reference's sidebar follows the
 * modules; a module's tags are its resources'.
 */
export interface TagGroup {
  document: ApiDocumentName;
  title: string;
  tags: TagDeclaration[];
}

const MODULE_TITLES: Record<ModuleName, string> = {
  sales: 'Sales',
  purchasing: 'Purchasing',
  inventory: 'Inventory',
  accounting: 'Accounting',
  crm: 'CRM',
  hr: 'HR',
  production: 'Production',
  projects: 'Projects',
  assets: 'Assets',
  support: 'Support',
};

/** The title of a document, and of its tag group in the whole. */
export function documentTitle(name: ApiDocumentName): string {
  return name === 'platform' ? 'Platform' : MODULE_TITLES[name];
}

const MODULE_INTROS: Record<ModuleName, string> = {
  sales: 'Selling, from the price list and the quote to the delivery and the return.',
  purchasing: 'Buying, from the purchase request and the supplier quotation to the goods receipt.',
  inventory: 'Products, warehouses and stock: every movement, the ledger and the levels.',
  accounting:
    'The books: accounts, invoices, payments and their allocations, journal entries, taxes; every posting balances in the database.',
  crm: 'Leads, customers, contacts, opportunities and campaigns.',
  hr: 'Employees, leave, attendance, expense reports, recruitment and payroll.',
  production: 'Bills of materials, routings, production and work orders, quality.',
  projects: 'Projects, tasks, milestones, timesheets and their budgets.',
  assets: 'Fixed assets, their depreciation, movements and maintenance.',
  support: 'Tickets, service levels, service contracts and the knowledge base.',
};

/** The platform's tags: what every integration uses whatever modules the tenant bought. */
const PLATFORM_TAGS: TagDeclaration[] = [
  {
    name: 'Authentication',
    description:
      'Sessions (log in, refresh, log out), single sign-on, password resets and invitations, and `GET /api/v1/me`: who the caller is and what it may do.',
  },
  {
    name: 'Events',
    description:
      "The tenant's event feed: every change recorded, numbered in order, for integrations that poll rather than receive webhooks.",
  },
  { name: 'Batch', description: 'Several operations in one request.' },
  {
    name: 'Webhooks',
    description:
      'What the portal sends to a subscribed endpoint: one signed request per event (subscriptions are under Settings: webhooks).',
  },
  { name: 'Settings: users', description: "The tenant's members and their roles." },
  {
    name: 'Settings: API keys',
    description: 'Tenant-bound API keys for integrations: created, rolled and revoked by admins.',
  },
  {
    name: 'Settings: webhooks',
    description: 'Webhook subscriptions, their deliveries, retries, recovery and signing secrets.',
  },
  { name: 'Settings: single sign-on', description: "The tenant's single sign-on." },
  { name: 'Settings: audit log', description: "Who changed what in the tenant's settings." },
  {
    name: 'Settings: company',
    description: "The company's identity on its documents and e-invoices.",
  },
  {
    name: 'Settings: portal access',
    description: "Platform-wide settings of the portal, for the platform operator's super-admins.",
  },
  { name: 'Public', description: 'No authentication: what the public website shows.' },
  {
    name: 'Internal',
    description:
      'Server-to-server routes of the platform (provisioning, subscriptions, leads), with the shared internal key.',
  },
  { name: 'System', description: 'Health, readiness, this document and its reference.' },
];

/** A module's extra tags beside its own (the module's reports and settings). */
const MODULE_EXTRA_TAGS: Partial<Record<ModuleName, TagDeclaration[]>> = {
  accounting: [
    {
      name: 'Reports',
      description:
        'Read from the ledger: trial balance, general ledger, aged receivables and payables, the FEC export.',
    },
    { name: 'Settings: accounting', description: "The tenant's accounting settings." },
  ],
};

/**
 * What a part is about, for the index of the reference and the part's own introduction: a
 * module's intro and the rights it asks for (its tags are its resources, so the module's own
 * words have no tag to live in).
 */
export function documentIntro(name: ApiDocumentName): string | undefined {
  if (name === 'platform') return undefined;
  return `${MODULE_INTROS[name]} Reading needs \`${name}:read\`, writing \`${name}:write\`.`;
}

/**
 * The document's tag groups, platform first: each tag declared once with its description, each
 * in exactly one group. A module's group has a tag per resource (its description the resource's
 * and the rights it asks for) in alphabetical order, then the module's extra tags.
 */
export function tagGroups(resources: readonly Resource[]): TagGroup[] {
  const modules = MODULES.map(
    (module): TagGroup => ({
      document: module,
      title: MODULE_TITLES[module],
      tags: [
        ...resources
          .filter((r) => r.module === module)
          .map((r) => ({
            name: resourceTag(r.path),
            description: `${r.description} Reading needs \`${module}:read\`${r.readOnly ? '' : `, writing \`${module}:write\``}.`,
          }))
          .sort((a, b) => a.name.localeCompare(b.name, 'en')),
        ...(MODULE_EXTRA_TAGS[module] ?? []),
      ],
    }),
  );
  return [
    { document: 'platform', title: documentTitle('platform'), tags: PLATFORM_TAGS },
    ...modules,
  ];
}
