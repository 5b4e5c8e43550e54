import { parseCronItem } from 'graphile-worker';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** An http(s) origin (a trailing slash is tolerated and dropped); paths are the callers'. */
const httpOrigin = httpUrl
  .refine((v) => /^https?:\/\/[^/?#]+\/?$/.test(v), 'must be an http(s) origin, without a path')
  .transform((v) => v.replace(/\/$/, ''));

/** A shared server-to-server key: long enough not to be guessed. */
const sharedKey = z.string().min(24, 'must be at least 24 characters');

/** Five fields, and graphile-worker's own parser agrees (ranges, steps, lists). */
const cronExpression = z.string().refine((v) => {
  if (v.trim().split(/\s+/).length !== 5) return false;
  try {
    parseCronItem({ task: 'erp_sync', match: v.trim() });
    return true;
  } catch {
    return false;
  }
}, 'must be a 5-field cron expression (minute hour day-of-month month day-of-week)');

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
  /** Liveness signal: `GET /health` on this port (unset: no server; the image sets 3002). */
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  WORKER_HEALTH_HOST: z.string().min(1).default('0.0.0.0'),
  /** Default target of the ERP sync push, until Settings → Portal access names one. */
  LANDING_SYNC_URL: httpUrl.optional(),
  LANDING_SYNC_API_KEY: sharedKey.optional(),
  ERP_SYNC_INTERVAL: cronExpression.default('*/5 * * * *'),
  /** Where landing's forwarded payment events and leads go (`/api/v1/internal/*`). */
  PORTAL_URL: httpOrigin.optional(),
  SAAS_INTERNAL_API_KEY: sharedKey.optional(),
  /** Whole-call timeout of the sync push and the calls to the portal. */
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
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
    // One line per variable (its first problem), never its value.
    const lines = new Map<string, string>();
    for (const issue of result.error.issues) {
      const name = String(issue.path[0]);
      if (!lines.has(name)) lines.set(name, `${name}: ${issue.message}`);
    }
    throw new EnvError([...lines.values()]);
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
