import type { ColumnType, Generated } from 'kysely';

/** Columns the database fills in on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface PlansTable {
  code: string;
  name: string;
  description: Defaulted<string>;
  currency: string;
  monthly_price_cents: number;
  yearly_price_cents: number;
  modules: string[];
  max_users: number | null;
  is_public: Defaulted<boolean>;
  sort_order: Defaulted<number>;
  updated_at: Timestamp;
}

export interface TenantsTable {
  id: Generated<string>;
  slug: string;
  name: string;
  plan_code: string | null;
  modules: Defaulted<string[]>;
  sso_authorize_url: string | null;
  rate_limit_per_minute: Defaulted<number>;
  /** The Idempotency-Key of the internal provisioning that created it. */
  provisioning_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SubscriptionsTable {
  id: Generated<string>;
  tenant_id: string;
  plan_code: string;
  status: string;
  provider: string;
  provider_subscription_id: string;
  current_period_end: Date | null;
  /** When the provider says the last applied change happened (null: never told). */
  provider_event_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembershipsTable {
  tenant_id: string;
  user_id: string;
  roles: string[];
  created_at: Timestamp;
}

export interface RefreshTokensTable {
  id: Generated<string>;
  family_id: string;
  user_id: string;
  token_hash: Buffer;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<string>;
  tenant_id: string;
  holder_id: string;
  name: string;
  prefix: string;
  secret_hash: Buffer;
  scopes: string[];
  rate_limit_per_minute: number | null;
  expires_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Timestamp;
}

export interface RateLimitBucketsTable {
  key: string;
  slots: string[];
  counts: number[];
  idle_after: Timestamp;
}

export interface WebhookSubscriptionsTable {
  id: Generated<string>;
  tenant_id: string;
  url: string;
  events: string[];
  description: Defaulted<string>;
  enabled: Defaulted<boolean>;
  disabled_reason: string | null;
  webhook_version: string;
  secret_sealed: Buffer;
  previous_secret_sealed: Buffer | null;
  previous_secret_expires_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  tenant_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  status: Defaulted<DeliveryStatus>;
  attempts: Defaulted<number>;
  next_attempt_at: Date | null;
  last_response_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveryAttemptsTable {
  delivery_id: string;
  attempt: number;
  manual: Defaulted<boolean>;
  started_at: Timestamp;
  duration_ms: number;
  response_status: number | null;
  response_excerpt: string | null;
  error: string | null;
}

export interface EventsTable {
  id: Generated<string>;
  tenant_id: string;
  type: string;
  resource: string;
  resource_id: string;
  data: unknown;
  created_at: Timestamp;
}

export type SyncStatus = 'ok' | 'failed' | 'skipped';

/** Settings → Portal access: where the ERP sync goes, and how the last push went (one row). */
export interface PortalAccessTable {
  id: Defaulted<boolean>;
  sync_url: string | null;
  enabled: Defaulted<boolean>;
  updated_at: Timestamp;
  last_attempt_at: Date | null;
  last_success_at: Date | null;
  last_status: SyncStatus | null;
  last_target: string | null;
  last_http_status: number | null;
  last_error: string | null;
  last_counts: unknown;
}

export type LeadKind = 'contact' | 'demo';

/** Leads forwarded by landing, keyed by landing's id. */
export interface PlatformLeadsTable {
  id: string;
  kind: LeadKind;
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  message: string | null;
  details: ColumnType<unknown, string | undefined, string>;
  submitted_at: Date | string;
  received_at: Timestamp;
}

export interface LandingPlansTable {
  code: string;
  name: string;
  description: Defaulted<string>;
  currency: string;
  monthly_price_cents: number;
  yearly_price_cents: number;
  modules: string[];
  max_users: number | null;
  sort_order: Defaulted<number>;
}

export interface LandingTenantsTable {
  id: string;
  slug: string;
  name: string;
  plan_code: string | null;
  modules: string[];
  created_at: Date | string;
}

export interface LandingMetadataTable {
  key: string;
  value: ColumnType<unknown, string, string>;
}

export interface LandingSyncStateTable {
  id: Defaulted<boolean>;
  last_sync_at: Date | null;
  generated_at: Date | null;
  payload_sha256: string | null;
  pushes_received: ColumnType<string, string | number | undefined, string | number>;
}

export type ProviderEventOutcome = 'queued' | 'ignored' | 'forwarded';

export interface LandingProviderEventsTable {
  provider: string;
  event_key: string;
  event_type: string;
  outcome: ProviderEventOutcome;
  reason: string | null;
  change: ColumnType<unknown, string | null | undefined, string | null>;
  received_at: Timestamp;
  forwarded_at: Date | null;
}

export interface LandingLeadsTable {
  id: Generated<string>;
  kind: LeadKind;
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  message: string | null;
  details: ColumnType<unknown, string | undefined, string>;
  client_address: string | null;
  created_at: Timestamp;
  forwarded_at: Date | null;
}

export interface LandingOnboardingsTable {
  reference: string;
  provider: string;
  tenant_slug: string;
  admin_email: string;
  initial_password: string | null;
  created_at: Timestamp;
  expires_at: Date | string;
  claimed_at: Date | null;
}

/** The portal's tables, and landing's (schema `landing`), as Kysely sees them. */
export interface Database {
  plans: PlansTable;
  tenants: TenantsTable;
  subscriptions: SubscriptionsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  refresh_tokens: RefreshTokensTable;
  api_keys: ApiKeysTable;
  rate_limit_buckets: RateLimitBucketsTable;
  events: EventsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  portal_access: PortalAccessTable;
  platform_leads: PlatformLeadsTable;
  'landing.plans': LandingPlansTable;
  'landing.tenants': LandingTenantsTable;
  'landing.metadata': LandingMetadataTable;
  'landing.sync_state': LandingSyncStateTable;
  'landing.provider_events': LandingProviderEventsTable;
  'landing.leads': LandingLeadsTable;
  'landing.onboardings': LandingOnboardingsTable;
}
