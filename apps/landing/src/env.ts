import { envVar, parseEnvironment } from '@erp/http';
import { z } from 'zod';
import { PlanPricesSchema } from './payments/plan-prices';

export const PAYMENT_PROVIDERS = ['stripe', 'paddle', 'lemonsqueezy'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

const EnvSchema = z.object({
  NODE_ENV: envVar.nodeEnv,
  DATABASE_URL: envVar.databaseUrl,
  DATABASE_POOL_SIZE: envVar.poolSize,
  LANDING_PORT: envVar.port(3001),
  LANDING_HOST: envVar.host,
  /** `GET /metrics` (Prometheus) on this port, never on LANDING_PORT; unset: no metrics listener. */
  LANDING_METRICS_PORT: envVar.optionalPort,
  /** Where `/api/v1/public/*` is proxied to (origin only, e.g. http://portal:3000). */
  PORTAL_URL: envVar.httpOrigin,
  /** Where people reach the console (the onboarding page links to its login); default PORTAL_URL. */
  CONSOLE_URL: envVar.httpOrigin.optional(),
  /** Guards `/api/erp-sync`; unset, every push is refused. */
  LANDING_SYNC_API_KEY: envVar.sharedKey.optional(),
  PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS).default('stripe'),
  /** The provider's signing secret; unset, every provider webhook is refused. */
  PAYMENT_WEBHOOK_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
  /**
   * `{"<price id or lookup key>": "<plan code>"}`: the only source of a purchase's plan (SPEC §8).
   * An event whose price is not here is stored `ignored`; in development each plan code is also
   * its own lookup key.
   */
  PAYMENT_PLAN_PRICES: PlanPricesSchema,
  /** Longest wait for the portal's TCP connection, then 502. */
  PROXY_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3_000),
  /** Longest wait for the portal's response headers, then 504. */
  PROXY_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(50).max(300_000).default(15_000),
  /** Memory the public proxy's shared cache may hold (portal responses marked `public`, per process); 0 turns it off. */
  PROXY_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(1024 * 1024 * 1024)
    .default(16 * 1024 * 1024),
  /** Contact and demo requests accepted per client address and hour. */
  FORM_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(5),
  /** Onboarding claims per client address and hour: enough for a browser polling while the tenant is provisioned (a 256-bit reference is not guessed anyway). */
  ONBOARDING_CLAIM_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(120),
  /** Onboarding references issued per client address and hour (a buyer may start a checkout again). */
  ONBOARDING_START_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
  /** The sync health reports `stale` when no push arrived for longer than this. */
  ERP_SYNC_STALE_AFTER_SECONDS: z.coerce.number().int().min(60).max(604_800).default(1800),
  /** Keep-alive connections landing holds open to the portal (the proxy's pool). */
  PROXY_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1024).default(64),
  /** Largest ERP sync push (a snapshot of every tenant), checked after its X-API-Key. */
  ERP_SYNC_BODY_LIMIT_BYTES: envVar.bodyLimit(64 * 1024 * 1024),
  BODY_LIMIT_BYTES: envVar.bodyLimit(256 * 1024),
  /** Take the client address from X-Forwarded-For (behind a trusted load balancer only). */
  TRUST_PROXY: envVar.boolean.default(false),
  LOG_LEVEL: envVar.logLevel,
  LOG_FORMAT: envVar.logFormat,
  /** OpenTelemetry traces go there (OTLP/HTTP protobuf, `<url>/v1/traces`); unset: no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: envVar.httpUrl.optional(),
});

export type LandingEnv = z.infer<typeof EnvSchema>;

/** Secrets production must be given. */
const REQUIRED_IN_PRODUCTION = ['LANDING_SYNC_API_KEY', 'PAYMENT_WEBHOOK_SECRET'] as const;

/** Parses landing's configuration from an environment (one line per bad variable). */
export function parseEnv(source: Record<string, string | undefined>): LandingEnv {
  return parseEnvironment(EnvSchema, source, { requiredInProduction: REQUIRED_IN_PRODUCTION });
}
