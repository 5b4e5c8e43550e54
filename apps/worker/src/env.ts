import { envVar, parseEnvironment } from '@erp/http';
import { parseCronItem } from 'graphile-worker';
import { z } from 'zod';

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
  NODE_ENV: envVar.nodeEnv,
  DATABASE_URL: envVar.databaseUrl,
  DATABASE_PREPARED_STATEMENTS: envVar.preparedStatements,
  /**
   * `transaction`: nothing stays on a connection between transactions, the worker's flag is set
   * in each (`SET LOCAL`, what Citus propagates to the shards: docs/scale-out.md). Its LISTENs
   * still want a session to wake it at once; without one it polls.
   */
  DATABASE_POOLER: envVar.pooler,
  SECRETS_ENCRYPTION_KEY: envVar.secret.optional(),
  WEBHOOK_ALLOW_PRIVATE_URLS: envVar.boolean.default(false),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().max(86_400).default(60),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(50),
  /** First webhook attempts in flight at most, per process (the outbox drain's batches). */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(5000).default(256),
  /**
   * How often scheduled jobs (retries) are looked for, and the webhook outbox while its worker
   * sleeps; new jobs and the first events after a quiet spell arrive by LISTEN/NOTIFY.
   */
  WORKER_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  WORKER_HEARTBEAT_SECONDS: z.coerce.number().positive().max(300).default(5),
  /** A worker silent for this long is taken for dead and its jobs are unlocked. */
  WORKER_DEAD_AFTER_SECONDS: z.coerce.number().positive().max(3600).default(30),
  /** Liveness signal: `GET /health` on this port (unset: no server; the image sets 3002). */
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  WORKER_HEALTH_HOST: z.string().min(1).default('0.0.0.0'),
  /** Default target of the ERP sync push, until Settings → Portal access names one. */
  LANDING_SYNC_URL: envVar.httpUrl.optional(),
  LANDING_SYNC_API_KEY: envVar.sharedKey.optional(),
  ERP_SYNC_INTERVAL: cronExpression.default('*/5 * * * *'),
  /** Where landing's forwarded payment events and leads go (`/api/v1/internal/*`). */
  PORTAL_URL: envVar.httpOrigin.optional(),
  SAAS_INTERNAL_API_KEY: envVar.sharedKey.optional(),
  /** Whole-call timeout of the sync push and the calls to the portal. */
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Outgoing e-mail (password reset, invitations); unset outside production = files in MAIL_DIR. */
  SMTP_URL: envVar.smtpUrl.optional(),
  MAIL_FROM: envVar.mailbox.optional(),
  /** Where development writes the messages it does not send (default `.data/mail`). */
  MAIL_DIR: z.string().min(1).optional(),
  /** The console's public address: the links in e-mails point there (never a request's Host). */
  CONSOLE_URL: envVar.httpOrigin.optional(),
  LOG_LEVEL: envVar.logLevel,
  LOG_FORMAT: envVar.logFormat,
  /** OpenTelemetry traces go there (OTLP/HTTP protobuf, `<url>/v1/traces`); unset: no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: envVar.httpUrl.optional(),
});

export type WorkerEnv = z.infer<typeof EnvSchema>;

/** Parses the worker's configuration from an environment (one line per bad variable). */
export function parseEnv(source: Record<string, string | undefined>): WorkerEnv {
  return parseEnvironment(EnvSchema, source, {
    check: (env) => [
      // Without the portal's key no signing secret can be opened: nothing could be delivered.
      ...(env.SECRETS_ENCRYPTION_KEY
        ? []
        : ['SECRETS_ENCRYPTION_KEY: required (the same value as the portal)']),
      ...(env.WORKER_DEAD_AFTER_SECONDS <= env.WORKER_HEARTBEAT_SECONDS * 2
        ? ['WORKER_DEAD_AFTER_SECONDS: must exceed twice WORKER_HEARTBEAT_SECONDS']
        : []),
      // Production mail goes to real people: its sender and its links must be the operator's.
      ...(env.SMTP_URL && !env.MAIL_FROM ? ['MAIL_FROM: required with SMTP_URL'] : []),
      // Mail files print their links (tokens) in the log: development only.
      ...(env.NODE_ENV === 'production' && env.MAIL_DIR
        ? ['MAIL_DIR: development only (production sends through SMTP_URL)']
        : []),
      ...(env.NODE_ENV === 'production' && env.SMTP_URL && !env.CONSOLE_URL
        ? ['CONSOLE_URL: required with SMTP_URL in production (the links in e-mails point there)']
        : []),
    ],
  });
}
