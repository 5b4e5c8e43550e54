import { randomBytes } from 'node:crypto';
import { ApiError } from '@erp/contract';
import type { LandingDeps } from '../deps';
import { referenceDigest } from '../payments/change';

/**
 * How long a reference waits for its purchase: a checkout abandoned and taken up again within
 * a week still brings its buyer to the claim; after that, a purchase carrying it claims nothing.
 */
export const REFERENCE_TTL_MS = 7 * 24 * 3_600_000;

/**
 * Issues the claim reference of a purchase to come (SPEC §8): 256 random bits, answered once
 * and stored as their SHA-256 only, so landing's tables (a backup, a replica, a provider event's
 * stored change) never hold what claims the first password. A plan no configured price sells
 * is refused: no checkout could buy it.
 */
export async function startOnboarding(
  deps: Pick<LandingDeps, 'db' | 'env' | 'now'>,
  input: { plan_code: string; email?: string },
): Promise<{ reference: string }> {
  const sold = new Set(Object.values(deps.env.PAYMENT_PLAN_PRICES));
  if (!sold.has(input.plan_code) && deps.env.NODE_ENV !== 'development') {
    throw new ApiError('requete_invalide', `No price sells plan ${input.plan_code}.`, {
      issues: [
        { location: 'json', path: 'plan_code', code: 'unknown_plan', message: 'no such plan' },
      ],
    });
  }
  const reference = randomBytes(32).toString('base64url');
  await deps.db
    .insertInto('landing.onboarding_references')
    .values({
      reference_sha256: referenceDigest(reference),
      plan_code: input.plan_code,
      email: input.email ?? null,
      expires_at: new Date(deps.now().getTime() + REFERENCE_TTL_MS),
    })
    .execute();
  return { reference };
}
