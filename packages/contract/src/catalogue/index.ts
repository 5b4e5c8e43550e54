import { inDependencyOrder, type Resource } from '../registry/define';
import { accountingResources } from './accounting/index';
import { assetsResources } from './assets/index';
import { crmResources } from './crm/index';
import { hrResources } from './hr/index';
import { inventoryResources } from './inventory/index';
import { productionResources } from './production/index';
import { projectsResources } from './projects/index';
import { purchasingResources } from './purchasing/index';
import { salesResources } from './sales/index';
import { supportResources } from './support/index';

/** Every resource as declared, module by module (literal types kept). */
const declared = [
  ...salesResources,
  ...purchasingResources,
  ...inventoryResources,
  ...accountingResources,
  ...crmResources,
  ...hrResources,
  ...productionResources,
  ...projectsResources,
  ...assetsResources,
  ...supportResources,
] as const;

/**
 * The product's business resources, in dependency order computed from their references
 * (referenced ones first): tables are created in this order and dropped in reverse, and the
 * seed fills them in this order.
 */
export const catalogue: readonly Resource[] = inDependencyOrder<Resource>(declared);

/** The name of every business event the catalogue records, as a union of literals. */
export type BusinessEventName = (typeof declared)[number]['eventNames'][number];

/** Every business event name, in catalogue order (the webhook catalogue, SPEC §7). */
export const BUSINESS_EVENT_NAMES = catalogue.flatMap((r) => r.eventNames) as [
  BusinessEventName,
  ...BusinessEventName[],
];

/** A business event name (what subscriptions list and deliveries carry). */
export type EventName = BusinessEventName;

/** Every event type the feed records (SPEC §12), as a union of literals. */
export type FeedEventName = (typeof declared)[number]['feedEventNames'][number];

/** Every event type the feed records, in catalogue order. */
export const FEED_EVENT_NAMES = catalogue.flatMap((r) => r.feedEventNames) as [
  FeedEventName,
  ...FeedEventName[],
];
