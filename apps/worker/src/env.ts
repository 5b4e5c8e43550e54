import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  SECRETS_ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanString.default(false),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().max(86_400).default(60),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(50),
  /** How often scheduled jobs (retries) are looked for; new jobs arrive by LISTEN/NOTIFY. */
  WORKER_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  WORKER_HEARTBEAT_SECONDS: z.coerce.number().positive().max(300).default(5),
  /** A worker silent for this long is taken for dead and its jobs are unlocked. */
  WORKER_DEAD_AFTER_SECONDS: z.coerce.number().positive().max(3600).default(30),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type WorkerEnv = z.infer<typeof EnvSchema>;

/** Thrown with one line per bad variable; never echoes a value. */
export class EnvError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
    this.name = 'EnvError';
  }
}

/** Parses the worker's configuration from an environment. */
export function parseEnv(source: Record<string, string | undefined>): WorkerEnv {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`));
  }
  const env = result.data;
  if (!env.SECRETS_ENCRYPTION_KEY) {
    // Without the portal's key no signing secret can be opened: nothing could be delivered.
    throw new EnvError(['SECRETS_ENCRYPTION_KEY: required (the same value as the portal)']);
  }
  if (env.WORKER_DEAD_AFTER_SECONDS <= env.WORKER_HEARTBEAT_SECONDS * 2) {
    throw new EnvError(['WORKER_DEAD_AFTER_SECONDS: must exceed twice WORKER_HEARTBEAT_SECONDS']);
  }
  return env;
}
