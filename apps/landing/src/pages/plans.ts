import { listOf, PlanSchema } from '@erp/contract';
import { clientAddress } from '@erp/http';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { LandingAppEnv, LandingDeps } from '../deps';
import type { PublicPortal } from '../proxy';

export type Plan = z.infer<typeof PlanSchema>;

/** The public route the pricing page shows (SPEC §8). */
export const PLANS_TARGET = '/api/v1/public/subscription-plans';
/** A visitor waits this long for the plans, then reads the page without them. */
export const PLANS_TIMEOUT_MS = 3_000;

const PlansAnswerSchema = listOf(PlanSchema);

/**
 * The plans, read through landing's public proxy (its pool and cache), or `undefined` when the
 * portal is down, slow, or answers anything but a list of plans: the pricing page then says
 * so instead of failing. Each such failure is logged once with the request id.
 */
export async function loadPlans(
  c: Context<LandingAppEnv>,
  deps: LandingDeps,
  portal: PublicPortal,
): Promise<Plan[] | undefined> {
  const requestId = c.get('requestId');
  try {
    const answer = await portal.get({
      target: PLANS_TARGET,
      requestId,
      clientAddress: clientAddress(c, deps.env.TRUST_PROXY),
      timeoutMs: PLANS_TIMEOUT_MS,
    });
    if (answer.status !== 200) {
      deps.logger.warn('pricing page: portal refused the plans', {
        request_id: requestId,
        status: answer.status,
      });
      return undefined;
    }
    const parsed = PlansAnswerSchema.safeParse(JSON.parse(answer.body.toString('utf8')));
    if (parsed.success) return parsed.data.data;
    deps.logger.warn('pricing page: the plans do not match the contract', {
      request_id: requestId,
    });
  } catch (error) {
    deps.logger.warn('pricing page: plans unavailable', {
      request_id: requestId,
      reason: failureReason(error),
    });
  }
  return undefined;
}

/** `4900` EUR → `€49`, `4950` → `€49.50`. */
export function formatPrice(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-GB', {
    style: 'currency',
    currency,
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
  }).format(cents / 100);
}

/** The most precise word on a failure: undici's code (ECONNREFUSED…), else ours, else the message. */
function failureReason(error: unknown): string {
  const { cause, code, message } = error as {
    cause?: { code?: string };
    code?: string;
    message?: string;
  };
  return cause?.code ?? code ?? message ?? 'unknown';
}
