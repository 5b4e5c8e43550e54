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
}
