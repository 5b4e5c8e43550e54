import { SlugSchema } from '@erp/contract';
import { envVar, parseEnvironment } from '@erp/http';
import { z } from 'zod';

const pem = (kind: string) =>
  z
    .string()
    .transform((v) => v.replace(/\\n/g, '\n').trim())
    .refine((v) => v.includes(`-----BEGIN ${kind}`), `must be a PEM ${kind.toLowerCase()}`);

const EnvSchema = z.object({
  NODE_ENV: envVar.nodeEnv,
  DATABASE_URL: envVar.databaseUrl,
  DATABASE_POOL_SIZE: envVar.poolSize,
  DATABASE_PREPARED_STATEMENTS: envVar.preparedStatements,
  DATABASE_POOLER: envVar.pooler,
  /**
   * Hot standbys of DATABASE_URL, comma-separated (SPEC §19): the engine's reads go to one that
   * has replayed the caller's last write, else to the primary. Unset: every read on the primary.
   */
  DATABASE_REPLICA_URLS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
    )
    .pipe(z.array(envVar.databaseUrl)),
  PORTAL_PORT: envVar.port(3000),
  PORTAL_HOST: envVar.host,
  /** `GET /metrics` (Prometheus) on this port, never on PORTAL_PORT; unset: no metrics listener. */
  PORTAL_METRICS_PORT: envVar.optionalPort,
  JWT_PRIVATE_KEY: pem('PRIVATE KEY').optional(),
  JWT_PUBLIC_KEY: pem('PUBLIC KEY').optional(),
  API_KEY_HASH_SECRET: envVar.secret.optional(),
  SECRETS_ENCRYPTION_KEY: envVar.secret.optional(),
  SAAS_INTERNAL_API_KEY: envVar.sharedKey.optional(),
  PUBLIC_ENDPOINTS_ENABLED: envVar.boolean.default(true),
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Per user and tenant (per user without a tenant), within the tenant's ceiling (SPEC §16). */
  SESSION_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  /** Every statement of the request pools (exports excepted: EXPORT_TIME_BUDGET_MS). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1).default(15_000),
  /** How long a request may wait for a database connection before 503 `surcharge`. */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(1).default(3_000),
  /** Named statements kept prepared per connection (the least recently used are deallocated). */
  DATABASE_MAX_PREPARED_STATEMENTS: z.coerce.number().int().min(1).default(200),
  /** Connections of the exports' own pool (at most 2 exports per tenant run at once). */
  EXPORT_POOL_SIZE: z.coerce.number().int().min(1).default(4),
  /** An export's whole time (its statement's limit too); past it the response is cut short. */
  EXPORT_TIME_BUDGET_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(10 * 60_000),
  /** A reader that takes nothing for this long loses its export. */
  EXPORT_STALL_MS: z.coerce.number().int().min(1).default(30_000),
  BODY_LIMIT_BYTES: envVar.bodyLimit(1024 * 1024),
  TRUST_PROXY: envVar.boolean.default(false),
  /** Subscriber URLs on private, loopback or link-local addresses (and plain http): dev only. */
  WEBHOOK_ALLOW_PRIVATE_URLS: envVar.boolean.default(false),
  /** OpenID issuers over plain http, and on loopback addresses (development and tests only). */
  SSO_ALLOW_INSECURE_ISSUERS: envVar.boolean.default(false),
  /**
   * Slug of the platform operator's own tenant: its super-admins (and no one else) manage
   * platform-wide settings (Settings → Portal access). Unset: nobody can.
   */
  PLATFORM_TENANT: SlugSchema.optional(),
  /** The console's build (index.html, assets/); unset: found beside the portal (console/). */
  CONSOLE_DIR: z.string().min(1).optional(),
  LOG_LEVEL: envVar.logLevel,
  LOG_FORMAT: envVar.logFormat,
  /** OpenTelemetry traces go there (OTLP/HTTP protobuf, `<url>/v1/traces`); unset: no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: envVar.httpUrl.optional(),
});

export type PortalEnv = z.infer<typeof EnvSchema>;

/** Secrets production must be given; development generates them (see tooling/dev). */
const REQUIRED_IN_PRODUCTION = [
  'JWT_PRIVATE_KEY',
  'JWT_PUBLIC_KEY',
  'API_KEY_HASH_SECRET',
  'SECRETS_ENCRYPTION_KEY',
  'SAAS_INTERNAL_API_KEY',
] as const;

/** Parses the portal's configuration from an environment (one line per bad variable). */
export function parseEnv(source: Record<string, string | undefined>): PortalEnv {
  return parseEnvironment(EnvSchema, source, {
    requiredInProduction: REQUIRED_IN_PRODUCTION,
    check: (env) =>
      Boolean(env.JWT_PRIVATE_KEY) !== Boolean(env.JWT_PUBLIC_KEY)
        ? ['JWT_PUBLIC_KEY: JWT_PRIVATE_KEY and JWT_PUBLIC_KEY go together']
        : [],
  });
}
