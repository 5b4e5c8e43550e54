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

/** The portal's tables, as Kysely sees them. */
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
}
