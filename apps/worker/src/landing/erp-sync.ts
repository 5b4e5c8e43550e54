import {
  type ErpSyncPush,
  ErpSyncPushSchema,
  ErpSyncResultSchema,
  type JobPayload,
  type jobs,
  MODULES,
  toModules,
} from '@erp/contract';
import type { JobHelpers } from 'graphile-worker';
import type pg from 'pg';
import { type LandingDeps, type SyncDeps, shorten } from './deps';
import { OutboundError } from './outbound';

type SyncStatus = 'ok' | 'failed' | 'skipped';

interface SyncRecord {
  status: SyncStatus;
  target: string | null;
  httpStatus?: number | null;
  error?: string | null;
  counts?: unknown;
}

/** How long the start-up push waits for landing to listen (they start together). */
const STARTUP_WAIT_MS = 60_000;
const STARTUP_RETRY_MS = 500;

/**
 * The scheduled push of tenants, plans and metadata to landing's `/api/erp-sync` (SPEC §8).
 * Every run records its outcome in `portal_access` (Settings → Portal access); a failed push
 * throws so graphile-worker retries it with its backoff. The start-up push (`{startup: true}`)
 * first waits for landing to listen: worker and landing start together, and a connection
 * refused then is the normal order of things, not a failure.
 */
export function erpSyncHandler(deps: SyncDeps) {
  return async function erpSync(
    payload: JobPayload<typeof jobs.erpSync>,
    helpers: Pick<JobHelpers, 'abortSignal'>,
  ) {
    const startup = payload.startup === true;
    const access = await readAccess(deps.pool);
    if (!access.enabled) {
      await recordSync(deps, { status: 'skipped', target: null, error: 'sync disabled' });
      return;
    }
    const target = access.sync_url ?? deps.env.LANDING_SYNC_URL ?? null;
    if (!target) {
      await recordSync(deps, { status: 'skipped', target: null, error: 'no sync target' });
      return;
    }
    const apiKey = deps.env.LANDING_SYNC_API_KEY;
    if (!apiKey) {
      const error = 'LANDING_SYNC_API_KEY is not set';
      await recordSync(deps, { status: 'failed', target, error });
      throw new Error(`erp_sync: ${error}`);
    }
    if (startup) {
      await waitForListener(deps, target, helpers.abortSignal);
      // Stopping before landing listened: the next start, or the next tick, pushes instead.
      if (helpers.abortSignal?.aborted) return;
    }
    const push = await buildPush(deps.pool, deps.now());
    let failure: SyncRecord;
    try {
      const response = await deps.outbound.postJson({ url: target, apiKey, body: push });
      const result = ErpSyncResultSchema.safeParse(response.json);
      const ok = response.status >= 200 && response.status < 300;
      if (ok && result.success) {
        await recordSync(deps, {
          status: 'ok',
          target,
          httpStatus: response.status,
          counts: result.data.counts,
        });
        deps.logger.info('erp sync pushed', { status: result.data.status, ...result.data.counts });
        return;
      }
      const what = ok ? 'answer is not an ErpSyncResult' : `HTTP ${response.status}`;
      failure = {
        status: 'failed',
        target,
        httpStatus: response.status,
        error: shorten(response.excerpt ? `${what}: ${response.excerpt}` : what),
      };
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      failure = { status: 'failed', target, error: shorten(error.message) };
    }
    await recordSync(deps, failure);
    throw new Error(`erp_sync failed: ${failure.error}`);
  };
}

/**
 * Resolves once something accepts a connection at the target's origin, or after STARTUP_WAIT_MS
 * (the push then fails and is retried as any other), or when the worker stops. One info line
 * says the push waits; nothing is recorded, since nothing failed.
 */
async function waitForListener(
  deps: LandingDeps,
  target: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = Date.now() + STARTUP_WAIT_MS;
  let told = false;
  while (!signal?.aborted && Date.now() < deadline) {
    if (await deps.outbound.accepts(target)) return;
    if (!told) {
      deps.logger.info('erp sync: the start-up push waits for landing to listen', {
        target: new URL(target).origin,
      });
      told = true;
    }
    await new Promise((resolve) => setTimeout(resolve, STARTUP_RETRY_MS));
  }
}

async function readAccess(pool: pg.Pool) {
  const { rows } = await pool.query<{ sync_url: string | null; enabled: boolean }>(
    'SELECT sync_url, enabled FROM portal_access WHERE id',
  );
  return rows[0] ?? { sync_url: null, enabled: true };
}

/** The snapshot: every tenant, the public plans (as the portal lists them), some metadata. */
export async function buildPush(pool: pg.Pool, now: Date): Promise<ErpSyncPush> {
  const [tenants, plans] = await Promise.all([
    pool.query<{
      id: string;
      slug: string;
      name: string;
      plan_code: string | null;
      modules: string[];
      created_at: Date;
    }>(
      'SELECT id, slug, name, plan_code, modules, created_at FROM tenants ORDER BY created_at, id',
    ),
    // The same columns, filter and order as the portal's listPublicPlans.
    pool.query<{
      code: string;
      name: string;
      description: string;
      currency: string;
      monthly_price_cents: number;
      yearly_price_cents: number;
      modules: string[];
      max_users: number | null;
    }>(
      `SELECT code, name, description, currency, monthly_price_cents, yearly_price_cents, modules, max_users
       FROM plans WHERE is_public ORDER BY sort_order, monthly_price_cents`,
    ),
  ]);
  return ErpSyncPushSchema.parse({
    generated_at: now.toISOString(),
    tenants: tenants.rows.map((t) => ({
      ...t,
      modules: toModules(t.modules),
      created_at: t.created_at.toISOString(),
    })),
    plans: plans.rows.map((p) => ({
      ...p,
      currency: p.currency.trim(),
      modules: toModules(p.modules),
    })),
    metadata: {
      modules: MODULES,
      tenant_count: tenants.rows.length,
      plan_count: plans.rows.length,
      api_version: 'v1',
      source: 'portal',
    },
  });
}

/** One statement: the attempt, and on success the counts landing reported. */
async function recordSync(deps: SyncDeps, record: SyncRecord): Promise<void> {
  deps.metrics.syncPushes.inc({ status: record.status });
  await deps.pool.query(
    `UPDATE portal_access SET
       last_attempt_at = now(),
       last_status = $1,
       last_target = $2,
       last_http_status = $3,
       last_error = $4,
       last_success_at = CASE WHEN $1 = 'ok' THEN now() ELSE last_success_at END,
       last_counts = CASE WHEN $1 = 'ok' THEN $5::jsonb ELSE last_counts END
     WHERE id`,
    [
      record.status,
      record.target,
      record.httpStatus ?? null,
      record.error ?? null,
      record.counts === undefined ? null : JSON.stringify(record.counts),
    ],
  );
}
