import {
  type AuditAction,
  WEBHOOK_DISABLE_FAILED_DELIVERIES,
  WEBHOOK_DISABLE_FAILING_DAYS,
} from '@erp/contract';
import { DELIVER_JOB_MAX_ATTEMPTS, deliveryJobKey, WEBHOOK_DELIVER } from '@erp/webhooks';
import type pg from 'pg';
import { createBatcher } from '../runtime/batcher';
import type { DeliveryTarget } from './deliver';
import {
  ABANDON_DELIVERY,
  AWAIT_SEQUENCES,
  FANOUT,
  LOAD_DELIVERY,
  RECORD_ATTEMPTS,
} from './statements';

const WEBHOOK_DISABLED_ACTION: AuditAction = 'webhook.disabled';

/** One attempt's result, as the attempt log and the delivery record it. */
export interface AttemptRecord {
  deliveryId: string;
  manual: boolean;
  startedAt: Date;
  durationMs: number;
  status: number | null;
  excerpt: string | null;
  error: string | null;
  outcome: 'delivered' | 'retry' | 'failed' | 'gone';
  /** Delay before the next attempt (outcome `retry`). */
  delayMs: number | null;
}

/** The worker's reads and writes of the delivery tables. */
export interface DeliveryStore {
  /**
   * Creates an event's deliveries and returns those awaiting their first attempt, once the
   * event has its sequence; `null` while it has none yet (its fan-out must wait).
   */
  fanout(eventId: string): Promise<DeliveryTarget[] | null>;
  load(deliveryId: string): Promise<DeliveryTarget | undefined>;
  record(attempts: readonly AttemptRecord[]): Promise<void>;
  abandon(deliveryId: string): Promise<void>;
}

/**
 * The store on a pool. Fan-outs and records of concurrent jobs share statements: each is one
 * transaction, and a commit (a WAL flush) is the dearest part of a small write, so 20 jobs in
 * flight commit together instead of 20 times. Every job still waits for its own rows.
 */
export function createDeliveryStore(pool: pg.Pool): DeliveryStore {
  const fanout = createBatcher(async (eventIds: string[]) => {
    const waiting = await pool.query<{ id: string }>({ ...AWAIT_SEQUENCES, values: [eventIds] });
    const unnumbered = new Set(waiting.rows.map((r) => r.id));
    const { rows } = await pool.query<DeliveryTarget>({ ...FANOUT, values: [eventIds] });
    const byEvent = new Map<string, DeliveryTarget[]>(eventIds.map((id) => [id, []]));
    for (const row of rows) byEvent.get(row.event_id)?.push(row);
    return eventIds.map((id) => (unnumbered.has(id) ? null : (byEvent.get(id) ?? [])));
  });
  const record = createBatcher(async (batches: (readonly AttemptRecord[])[]) => {
    await pool.query({ ...RECORD_ATTEMPTS, values: recordAttemptsValues(batches.flat()) });
    return batches.map(() => undefined);
  });
  return {
    fanout,
    async load(deliveryId) {
      const { rows } = await pool.query<DeliveryTarget>({ ...LOAD_DELIVERY, values: [deliveryId] });
      return rows[0];
    },
    record: async (attempts) => {
      if (attempts.length > 0) await record(attempts);
    },
    async abandon(deliveryId) {
      await pool.query({ ...ABANDON_DELIVERY, values: [deliveryId] });
    },
  };
}

/** RECORD_ATTEMPTS's parameters for these attempts (the bench's database cases send them too). */
export function recordAttemptsValues(all: readonly AttemptRecord[]): unknown[] {
  return [
    all.map((a) => a.deliveryId),
    all.map((a) => a.manual),
    all.map((a) => a.startedAt),
    all.map((a) => a.durationMs),
    all.map((a) => a.status),
    all.map((a) => clean(a.excerpt)),
    all.map((a) => clean(a.error)),
    all.map((a) => a.outcome),
    all.map((a) => a.delayMs),
    WEBHOOK_DELIVER,
    DELIVER_JOB_MAX_ATTEMPTS,
    deliveryJobKey(''),
    WEBHOOK_DISABLE_FAILED_DELIVERIES,
    WEBHOOK_DISABLE_FAILING_DAYS * 86_400,
    WEBHOOK_DISABLED_ACTION,
  ];
}

/** PostgreSQL text cannot hold NUL; a receiver's answer may. */
function clean(text: string | null): string | null {
  return text === null ? null : text.replaceAll('\0', '');
}
