import {
  type AuditAction,
  jobs,
  WEBHOOK_DELIVERY_KEY_PREFIX,
  WEBHOOK_DISABLE_FAILED_DELIVERIES,
  WEBHOOK_DISABLE_FAILING_DAYS,
} from '@erp/contract';
import type pg from 'pg';
import { createBatcher } from '../runtime/batcher';
import {
  ABANDON_DELIVERY,
  CLAIM_EVENTS,
  type DeliveryTarget,
  LOAD_DELIVERY,
  OUTBOX_READY,
  RECORD_ATTEMPTS,
  SET_WAKE,
  TAKE_OVER_CLAIMS,
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
  /**
   * The first attempt of a claimed delivery, not written yet: what its record inserts. Null for
   * a delivery already written (a retry, a replay, a test delivery), whose record updates it.
   */
  claimed: { tenantId: string; subscriptionId: string; eventId: string } | null;
}

/** Deliveries claimed by this process: attempted, then recorded with the claim's release. */
export interface Claimed {
  claimId: string;
  targets: DeliveryTarget[];
}

/** How much one claim takes from the outbox. */
export interface ClaimLimits {
  /** Deliveries wanted, about (an event is never split: its fan-out may exceed it). */
  deliveries: number;
  /** Events per tenant at most. */
  events: number;
  /** Tenants at most. */
  tenants: number;
}

/** The worker's reads and writes of the delivery tables. */
export interface DeliveryStore {
  /** Numbers what committed; says whether some tenant's events wait for their fan-out, and whether some claim is orphaned. */
  ready(): Promise<{ behind: boolean; orphaned: boolean }>;
  /**
   * Fans out the next events of the tenants that have some, claimed by `processId` (null when
   * none of them is wanted); `moved` counts the cursors that moved (0: nothing to take).
   */
  claim(
    processId: string,
    limits: ClaimLimits,
  ): Promise<{ moved: number; claimed: Claimed | null }>;
  /** Claims again the unattempted deliveries of processes that stopped beating; null when none. */
  takeOver(processId: string, claims: number): Promise<Claimed | null>;
  /** Arms the NOTIFY of writes of events for `leaseMs`, or disarms it (null). */
  setWake(leaseMs: number | null): Promise<void>;
  load(deliveryId: string): Promise<DeliveryTarget | undefined>;
  /** Records attempts and releases the claims they answer, in one statement. */
  record(attempts: readonly AttemptRecord[], claimIds?: readonly string[]): Promise<void>;
  abandon(deliveryId: string): Promise<void>;
}

type ClaimedRow = DeliveryTarget & { claim_id: string | null };

function claimed(rows: ClaimedRow[]): Claimed | null {
  const first = rows[0];
  if (!first?.claim_id) return null;
  return { claimId: first.claim_id, targets: rows };
}

/**
 * The store on a pool. Records of concurrent batches share statements: each is one
 * transaction, and a commit (a WAL flush) is the dearest part of a small write, so batches
 * finishing together commit together. Every caller still waits for its own rows.
 */
export function createDeliveryStore(pool: pg.Pool): DeliveryStore {
  type Recording = { attempts: readonly AttemptRecord[]; claimIds: readonly string[] };
  const record = createBatcher(async (batches: Recording[]) => {
    await pool.query({
      ...RECORD_ATTEMPTS,
      values: recordAttemptsValues(
        batches.flatMap((b) => b.attempts),
        batches.flatMap((b) => b.claimIds),
      ),
    });
    return batches.map(() => undefined);
  });
  return {
    async ready() {
      const { rows } = await pool.query<{ behind: boolean; orphaned: boolean }>(OUTBOX_READY);
      return rows[0]!;
    },
    async claim(processId, limits) {
      const { rows } = await pool.query<ClaimedRow & { moved: number }>({
        ...CLAIM_EVENTS,
        values: [processId, limits.deliveries, limits.events, limits.tenants],
      });
      return { moved: rows[0]?.moved ?? 0, claimed: claimed(rows) };
    },
    async takeOver(processId, claims) {
      const { rows } = await pool.query<ClaimedRow>({
        ...TAKE_OVER_CLAIMS,
        values: [processId, claims],
      });
      return claimed(rows);
    },
    async setWake(leaseMs) {
      await pool.query({ ...SET_WAKE, values: [leaseMs] });
    },
    async load(deliveryId) {
      const { rows } = await pool.query<DeliveryTarget>({ ...LOAD_DELIVERY, values: [deliveryId] });
      return rows[0];
    },
    record: async (attempts, claimIds = []) => {
      if (attempts.length > 0 || claimIds.length > 0) await record({ attempts, claimIds });
    },
    async abandon(deliveryId) {
      await pool.query({ ...ABANDON_DELIVERY, values: [deliveryId] });
    },
  };
}

/** RECORD_ATTEMPTS's parameters for these attempts (the bench's database cases send them too). */
export function recordAttemptsValues(
  all: readonly AttemptRecord[],
  claimIds: readonly string[] = [],
): unknown[] {
  return [
    arrayLiteral(all.map((a) => a.deliveryId)),
    arrayLiteral(all.map((a) => (a.manual ? 't' : 'f'))),
    arrayLiteral(all.map((a) => a.startedAt.toISOString())),
    arrayLiteral(all.map((a) => a.durationMs)),
    arrayLiteral(all.map((a) => a.status)),
    all.map((a) => clean(a.excerpt)),
    all.map((a) => clean(a.error)),
    arrayLiteral(all.map((a) => a.outcome)),
    arrayLiteral(all.map((a) => a.delayMs)),
    // The retries' jobs, as `jobs.webhookDeliver` defines them (its key built in SQL).
    jobs.webhookDeliver.name,
    jobs.webhookDeliver.maxAttempts,
    WEBHOOK_DELIVERY_KEY_PREFIX,
    WEBHOOK_DISABLE_FAILED_DELIVERIES,
    WEBHOOK_DISABLE_FAILING_DAYS * 86_400,
    WEBHOOK_DISABLED_ACTION,
    arrayLiteral(claimIds),
    arrayLiteral(all.map((a) => a.claimed?.tenantId ?? null)),
    arrayLiteral(all.map((a) => a.claimed?.subscriptionId ?? null)),
    arrayLiteral(all.map((a) => a.claimed?.eventId ?? null)),
  ];
}

/**
 * A PostgreSQL array literal of values that never need quoting (uuids, numbers, ISO times,
 * fixed words): node-postgres would quote and escape each element of a JS array (two regular
 * expressions per element, a date formatted by hand), a visible share of a delivery's CPU.
 */
function arrayLiteral(values: readonly (string | number | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : v)).join(',')}}`;
}

/** PostgreSQL text cannot hold NUL; a receiver's answer may. */
function clean(text: string | null): string | null {
  return text === null ? null : text.replaceAll('\0', '');
}
