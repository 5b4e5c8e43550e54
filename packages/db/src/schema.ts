import type { Selectable } from 'kysely';
import type {
  LandingProviderEventsTable,
  PlatformLeadsTable,
  PortalAccessTable,
  WebhookDeliveriesTable,
} from './database.gen';

/**
 * The tables' types are generated from the migrated database (database.gen.ts); these names
 * say what some of their values mean where the apps pass them around.
 */
export type DeliveryStatus = Selectable<WebhookDeliveriesTable>['status'];
export type SyncStatus = NonNullable<Selectable<PortalAccessTable>['last_status']>;
export type LeadKind = Selectable<PlatformLeadsTable>['kind'];
export type ProviderEventOutcome = Selectable<LandingProviderEventsTable>['outcome'];
