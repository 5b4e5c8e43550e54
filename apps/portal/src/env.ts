import { SlugSchema } from '@erp/contract';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const pem = (kind: string) =>
  z
    .string()
    .transform((v) => v.replace(/\\n/g, '\n').trim())
    .refine((v) => v.includes(`-----BEGIN ${kind}`), `must be a PEM ${kind.toLowerCase()}`);

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  PORTAL_PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  PORTAL_HOST: z.string().default('0.0.0.0'),
  JWT_PRIVATE_KEY: pem('PRIVATE KEY').optional(),
  JWT_PUBLIC_KEY: pem('PUBLIC KEY').optional(),
  API_KEY_HASH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SECRETS_ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  SAAS_INTERNAL_API_KEY: z.string().min(24, 'must be at least 24 characters').optional(),
  PUBLIC_ENDPOINTS_ENABLED: booleanString.default(true),
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  TRUST_PROXY: booleanString.default(false),
  /** Subscriber URLs on private, loopback or link-local addresses (and plain http): dev only. */
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanString.default(false),
  /**
   * Slug of the platform operator's own tenant: its super-admins (and no one else) manage
   * platform-wide settings (Settings → Portal access). Unset: nobody can.
   */
  PLATFORM_TENANT: SlugSchema.optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
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

/** Thrown with one line per bad variable; never echoes a value. */
export class EnvError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
    this.name = 'EnvError';
  }
}

/** Parses the portal's configuration from an environment. */
export function parseEnv(source: Record<string, string | undefined>): PortalEnv {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`));
  }
  const env = result.data;
  if (env.NODE_ENV === 'production') {
    const missing = REQUIRED_IN_PRODUCTION.filter((name) => !env[name]);
    if (missing.length) throw new EnvError(missing.map((n) => `${n}: required in production`));
  }
  if (Boolean(env.JWT_PRIVATE_KEY) !== Boolean(env.JWT_PUBLIC_KEY)) {
    throw new EnvError(['JWT_PUBLIC_KEY: JWT_PRIVATE_KEY and JWT_PUBLIC_KEY go together']);
  }
  return env;
}
