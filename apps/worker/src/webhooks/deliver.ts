import type { Logger } from '@erp/logger';
import { deliveryHeaders, type SecretBox } from '@erp/webhooks';
import type { WorkerMetrics } from '../runtime/metrics';
import { observeAttempt } from './attempt-telemetry';
import type { Sender, SendResult } from './http-sender';
import { MAX_ATTEMPTS, nextRetryDelay, parseRetryAfter } from './retry-schedule';
import type { DeliveryTarget } from './statements';
import type { AttemptRecord, DeliveryStore } from './store';

export interface DeliveryDeps {
  store: DeliveryStore;
  sender: Sender;
  secretBox: SecretBox;
  logger: Logger;
  metrics: Pick<WorkerMetrics, 'webhookAttempts' | 'webhookAttemptDuration'>;
  retryBaseMs: number;
  now: () => Date;
  random?: () => number;
}

/**
 * The body of a delivery (SPEC §7, §12: with the event's `sequence`, except a test delivery's).
 * The event's data is spliced in as PostgreSQL wrote it, so the bytes signed are the bytes sent.
 */
export function deliveryBody(target: DeliveryTarget): string {
  const sequence = target.sequence === null ? '' : `,"sequence":${target.sequence}`;
  return `{"id":${JSON.stringify(target.event_id)},"delivery_id":${JSON.stringify(target.delivery_id)},"type":${JSON.stringify(target.event_type)},"created_at":${JSON.stringify(target.event_created_at.toISOString())},"tenant_id":${JSON.stringify(target.tenant_id)}${sequence},"data":${target.data}}`;
}

/** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(target: DeliveryTarget, box: SecretBox, now: Date): string[] {
  const secrets = [box.open(target.secret_sealed, target.subscription_id)];
  if (
    target.previous_secret_sealed &&
    target.previous_secret_expires_at &&
    target.previous_secret_expires_at > now
  ) {
    secrets.push(box.open(target.previous_secret_sealed, target.subscription_id));
  }
  return secrets;
}

export interface AttemptOptions {
  /** A replay a user asked for. */
  manual?: boolean;
  /** The claims these deliveries answer, released by the statement that records them. */
  claimIds?: readonly string[];
  /** Called as each attempt ends (before the record). */
  onAttempted?: () => void;
  /** First attempts of deliveries a claim holds, not written yet (the outbox drain's). */
  claimed?: boolean;
}

/**
 * Makes one attempt of each delivery, all at once, then records every result in one statement
 * (attempt log, delivery status, next attempt enqueued, claims released). A crash before the
 * record leaves the claim (or the job) to be taken up again: delivery is at least once.
 */
export async function attemptDeliveries(
  deps: DeliveryDeps,
  targets: readonly DeliveryTarget[],
  options: AttemptOptions = {},
): Promise<void> {
  const records = await attemptAll(deps, targets, options);
  await deps.store.record(records, options.claimIds);
}

/** One attempt of each delivery, all at once: what each came to, to record. */
export function attemptAll(
  deps: DeliveryDeps,
  targets: readonly DeliveryTarget[],
  options: Omit<AttemptOptions, 'claimIds'> = {},
): Promise<AttemptRecord[]> {
  const manual = options.manual ?? false;
  return Promise.all(
    targets.map((target) =>
      observeAttempt(deps.metrics, target, async (): Promise<AttemptRecord> => {
        const { startedAt, result } = await attemptOne(deps, target);
        options.onAttempted?.();
        return {
          deliveryId: target.delivery_id,
          manual,
          startedAt,
          durationMs: result.durationMs,
          status: result.status,
          excerpt: result.excerpt,
          error: result.error,
          ...decide(deps, target, result),
          claimed: options.claimed
            ? {
                tenantId: target.tenant_id,
                subscriptionId: target.subscription_id,
                eventId: target.event_id,
              }
            : null,
        };
      }),
    ),
  );
}

/** One attempt; what fails before the request (a secret that cannot be opened) is a failed attempt too. */
async function attemptOne(
  deps: DeliveryDeps,
  target: DeliveryTarget,
): Promise<{ startedAt: Date; result: SendResult }> {
  const startedAt = deps.now();
  try {
    return await sendOne(deps, target, startedAt);
  } catch (error) {
    deps.logger.error('webhook attempt not made', {
      delivery_id: target.delivery_id,
      error: error instanceof Error ? error.message : String(error),
    });
    const result = { status: null, durationMs: 0, excerpt: null, retryAfter: null };
    return { startedAt, result: { ...result, error: 'internal error: the request was not sent' } };
  }
}

async function sendOne(deps: DeliveryDeps, target: DeliveryTarget, startedAt: Date) {
  const body = deliveryBody(target);
  // A fresh timestamp and signature on every attempt, replays included.
  const headers = deliveryHeaders({
    deliveryId: target.delivery_id,
    eventType: target.event_type,
    timestamp: Math.floor(startedAt.getTime() / 1000),
    body,
    webhookVersion: target.webhook_version,
    secrets: signingSecrets(target, deps.secretBox, startedAt),
  });
  const result = await deps.sender.send(target.url, headers, body);
  deps.logger.debug('webhook attempt', {
    delivery_id: target.delivery_id,
    event: target.event_type,
    status: result.status,
    duration_ms: result.durationMs,
  });
  return { startedAt, result };
}

function decide(deps: DeliveryDeps, target: DeliveryTarget, result: SendResult) {
  const attempt = target.attempts + 1;
  let outcome: AttemptRecord['outcome'];
  if (result.status !== null && result.status >= 200 && result.status < 300) outcome = 'delivered';
  else if (result.status === 410) outcome = 'gone';
  else outcome = attempt >= MAX_ATTEMPTS ? 'failed' : 'retry';
  if (outcome !== 'retry') return { outcome, delayMs: null };
  const now = deps.now().getTime();
  const honoured = result.status === 429 || result.status === 503;
  const delay = nextRetryDelay(attempt, {
    baseMs: deps.retryBaseMs,
    retryAfterMs: honoured ? parseRetryAfter(result.retryAfter, now) : null,
    random: deps.random,
  });
  return { outcome, delayMs: delay };
}
