import { z } from 'zod';

/**
 * Thrown with one line per bad variable, naming it and never echoing its value (a secret may be
 * the thing that is malformed).
 */
export class EnvError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
    this.name = 'EnvError';
  }
}

/** The pieces every app's `env.ts` builds its schema from, so one variable means one thing. */
export const envVar = {
  nodeEnv: z.enum(['development', 'test', 'production']).default('development'),
  databaseUrl: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }),
  poolSize: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * DATABASE_PREPARED_STATEMENTS: named statements prepared once per connection (true), or every
   * statement unnamed (false: behind PgBouncer before 1.21 in transaction mode).
   */
  preparedStatements: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .default(true),
  /**
   * DATABASE_POOLER: what stands between the app and PostgreSQL. `none` (direct connections)
   * and `session` (a session-mode pooler) let a connection keep session settings; `transaction`
   * (PgBouncer in transaction mode) does not, so they are set in every transaction
   * (docs/connection-pooler.md).
   */
  pooler: z.enum(['none', 'session', 'transaction']).default('none'),
  port: (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback),
  /** A listener that is off unless its port is given (metrics). */
  optionalPort: z.coerce.number().int().min(0).max(65_535).optional(),
  host: z.string().min(1).default('0.0.0.0'),
  boolean: z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
  httpUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  /** An http(s) origin (a trailing slash is tolerated and dropped); paths are the callers'. */
  httpOrigin: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .refine((v) => /^https?:\/\/[^/?#]+\/?$/.test(v), 'must be an http(s) origin, without a path')
    .transform((v) => v.replace(/\/$/, '')),
  /** An SMTP server: `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…` (TLS). */
  smtpUrl: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }),
  /** A sender: `address@domain` or `Name <address@domain>`. */
  mailbox: z
    .string()
    .regex(
      /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
      'must be an e-mail address, or Name <address>',
    ),
  /** A shared server-to-server key (SPEC §4): long enough not to be guessed. */
  sharedKey: z.string().min(24, 'must be at least 24 characters'),
  /** A key material secret (hashing, encryption). */
  secret: z.string().min(32, 'must be at least 32 characters'),
  bodyLimit: (fallback: number) => z.coerce.number().int().min(1024).default(fallback),
  logLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** `json` or `pretty`; unset: pretty in development, json elsewhere (`defaultLogFormat`). */
  logFormat: z.enum(['json', 'pretty']).optional(),
};

export interface EnvRules<T> {
  /** Variables production must be given (development generates or skips them). */
  requiredInProduction?: readonly (keyof T & string)[];
  /** Rules across variables: one line per broken rule. */
  check?: (env: T) => string[];
}

/**
 * Parses an app's environment with its zod schema: empty strings count as unset, one line per
 * variable (its first problem), then the production requirements and cross-variable rules.
 */
export function parseEnvironment<S extends z.ZodObject>(
  schema: S,
  source: Record<string, string | undefined>,
  rules: EnvRules<z.infer<S>> = {},
): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = new Map<string, string>();
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? 'environment');
      if (!lines.has(name)) lines.set(name, `${name}: ${issue.message}`);
    }
    throw new EnvError([...lines.values()]);
  }
  const env = result.data as z.infer<S>;
  if ((env as { NODE_ENV?: string }).NODE_ENV === 'production') {
    const missing = (rules.requiredInProduction ?? []).filter((name) => !env[name]);
    if (missing.length) throw new EnvError(missing.map((n) => `${n}: required in production`));
  }
  const broken = rules.check?.(env) ?? [];
  if (broken.length) throw new EnvError(broken);
  return env;
}
