import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestDatabase } from '@erp/db/testing';
import { createLogger } from '@erp/logger';
import { createSecretBox, generateSigningSecret } from '@erp/webhooks';
import { parseEnv } from '../src/env';
import { type RunningWorker, startWorker, type WorkerDeps } from '../src/worker';

export const ENCRYPTION_KEY = 'worker-test-encryption-key-0123456789abcdef';
export const box = createSecretBox(ENCRYPTION_KEY);

/** The environment of a test worker: fast retries, private URLs allowed unless said. */
export function testEnv(databaseUrl: string, overrides: Record<string, string> = {}) {
  return parseEnv({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    SECRETS_ENCRYPTION_KEY: ENCRYPTION_KEY,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_BASE_SECONDS: '0.3',
    WORKER_CONCURRENCY: '4',
    WORKER_POLL_INTERVAL_MS: '50',
    LOG_LEVEL: 'silent',
    ...overrides,
  });
}

/** A worker on the test database; `stop` is graceful. */
export function runWorker(
  database: TestDatabase,
  overrides: Record<string, string> = {},
  extra: Partial<WorkerDeps> = {},
): Promise<RunningWorker> {
  return startWorker({
    env: testEnv(database.url, overrides),
    logger: createLogger('silent', 'worker'),
    ...extra,
  });
}

/** A tenant row, straight in the database (the worker's tests do not need the portal). */
export async function createTenant(database: TestDatabase): Promise<string> {
  const id = randomUUID();
  await database.pool.query(
    `INSERT INTO tenants (id, slug, name, modules) VALUES ($1, $2, 'Test', ARRAY['sales'])`,
    [id, `t-${id.slice(0, 8)}`],
  );
  return id;
}

export interface Subscription {
  id: string;
  secret: string;
}

/** A subscription with its secret sealed as the portal seals it. */
export async function createSubscription(
  database: TestDatabase,
  tenantId: string,
  url: string,
  events: string[] = ['sales_order.created'],
): Promise<Subscription> {
  const id = randomUUID();
  const secret = generateSigningSecret();
  await database.pool.query(
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, webhook_version, secret_sealed)
     VALUES ($1, $2, $3, $4, '2026-11-23', $5)`,
    [id, tenantId, url, events, box.seal(secret, id)],
  );
  return { id, secret };
}

/** Records a business event as the portal does (the trigger enqueues its fan-out). */
export async function recordEvent(
  database: TestDatabase,
  tenantId: string,
  type = 'sales_order.created',
  data: unknown = { object: { id: randomUUID(), status: 'brouillon', total_cents: 1250 } },
): Promise<string> {
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO events (tenant_id, type, resource, resource_id, data)
     VALUES ($1, $2, 'sales_order', $3, $4) RETURNING id`,
    [tenantId, type, randomUUID(), JSON.stringify(data)],
  );
  return rows[0]!.id;
}

export interface ReceivedRequest {
  at: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A subscriber on 127.0.0.1 whose answers the test scripts; it records every request. */
export async function startReceiver(
  respond: (
    request: ReceivedRequest,
    index: number,
  ) => { status: number; headers?: Record<string, string>; body?: string } = () => ({
    status: 200,
  }),
  host = '127.0.0.1',
) {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        at: Date.now(),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const answer = respond(request, received.length - 1);
      res.writeHead(answer.status, answer.headers).end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/hook`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A delivery's row and its attempts: the first one, kept in the row, then the attempt log. */
export async function deliveryLog(database: TestDatabase, eventId: string) {
  const { rows } = await database.pool.query(
    `SELECT d.*, (SELECT json_agg(a ORDER BY a.attempt) FROM (
         SELECT 1 AS attempt, d.first_manual AS manual, d.first_started_at AS started_at,
           d.first_duration_ms AS duration_ms, d.first_response_status AS response_status,
           d.first_response_excerpt AS response_excerpt, d.first_error AS error
         WHERE d.first_started_at IS NOT NULL
         UNION ALL
         SELECT attempt, manual, started_at, duration_ms, response_status, response_excerpt, error
         FROM webhook_delivery_attempts x WHERE x.delivery_id = d.id
       ) a) AS attempt_log
     FROM webhook_deliveries d WHERE d.event_id = $1 ORDER BY d.id`,
    [eventId],
  );
  return rows;
}
