import { sql } from '@erp/db';
import type { LandingDeps } from '../deps';
import { referenceDigest } from '../payments/change';

/** What the buyer's browser gets, once, to log in to its new tenant. */
export interface OnboardingClaim {
  tenant: string;
  email: string;
  password: string | null;
  login_url: string;
}

/**
 * Hands out an onboarding once: one statement locks the unclaimed, unexpired row, erases the
 * password and marks it claimed, returning the password it held. A second claim, an expired or
 * an unknown reference are all `undefined` (the caller answers 404 alike). Rows are keyed by the
 * SHA-256 of the reference landing issued (`startOnboarding`): a provider's id claims nothing.
 */
export async function claimOnboarding(
  deps: Pick<LandingDeps, 'db' | 'env' | 'now'>,
  reference: string,
): Promise<OnboardingClaim | undefined> {
  const now = deps.now();
  const digest = referenceDigest(reference);
  const { rows } = await sql<{ tenant_slug: string; admin_email: string; password: string | null }>`
    UPDATE landing.onboardings o
    SET initial_password = NULL, claimed_at = ${now}
    FROM (
      SELECT reference, initial_password FROM landing.onboardings
      WHERE reference = ${digest} AND claimed_at IS NULL AND expires_at > ${now}
      FOR UPDATE
    ) AS before
    WHERE o.reference = before.reference
    RETURNING o.tenant_slug, o.admin_email, before.initial_password AS password`.execute(deps.db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    tenant: row.tenant_slug,
    email: row.admin_email,
    password: row.password,
    login_url: `${new URL(deps.env.PORTAL_URL).origin}/api/v1/auth/login`,
  };
}
