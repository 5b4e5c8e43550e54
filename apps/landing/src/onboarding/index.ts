import { ApiError, EmailSchema } from '@erp/contract';
import { clientAddress, readJsonBody } from '@erp/http';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { LandingAppEnv, LandingDeps } from '../deps';
import { takeHourlyUnit } from '../http/throttle';
import { claimOnboarding, type OnboardingClaim } from './claim';
import { startOnboarding } from './start';

export type { OnboardingClaim } from './claim';

const ClaimBodySchema = z.strictObject({ reference: z.string().min(1).max(200) });
const StartBodySchema = z.strictObject({
  plan_code: z.string().min(1).max(64),
  email: EmailSchema.optional(),
});

/**
 * A claim as a browser makes it, through the API or the onboarding page alike: throttled per
 * address before the lookup (so references cannot be tried in bulk, 429 `limite_depassee`),
 * then handed out once. `undefined`: nothing to claim (unknown, claimed, expired).
 */
export async function claimForClient(
  c: Context<LandingAppEnv>,
  deps: LandingDeps,
  reference: string,
): Promise<OnboardingClaim | undefined> {
  const address = clientAddress(c, deps.env.TRUST_PROXY);
  await takeHourlyUnit(
    deps.db,
    `landing:claim:${address}`,
    deps.env.ONBOARDING_CLAIM_RATE_LIMIT_PER_HOUR,
  );
  const claimed = await claimOnboarding(deps, reference);
  if (claimed) {
    deps.logger.info('onboarding claimed', {
      request_id: c.get('requestId'),
      tenant: claimed.tenant,
    });
  }
  return claimed;
}

/**
 * `POST /api/onboarding/start {plan_code, email?}` → 201 `{reference}`: the claim reference the
 * checkout carries to the provider. `POST /api/onboarding/claim {reference}`: the new tenant's
 * first login, handed out once and never cached. The onboarding page (pages/) is the same claim
 * behind an HTML form. Both are throttled per client address.
 */
export function registerOnboardingRoutes(app: Hono<LandingAppEnv>, deps: LandingDeps): void {
  app.post('/api/onboarding/start', async function start(c) {
    const body = await readJsonBody(c, StartBodySchema);
    const address = clientAddress(c, deps.env.TRUST_PROXY);
    await takeHourlyUnit(
      deps.db,
      `landing:onboarding-start:${address}`,
      deps.env.ONBOARDING_START_RATE_LIMIT_PER_HOUR,
    );
    const started = await startOnboarding(deps, body);
    c.header('Cache-Control', 'no-store');
    return c.json(started, 201);
  });
  app.post('/api/onboarding/claim', async function claim(c) {
    const { reference } = await readJsonBody(c, ClaimBodySchema);
    const claimed = await claimForClient(c, deps, reference);
    c.header('Cache-Control', 'no-store');
    if (!claimed) throw new ApiError('introuvable', 'No onboarding to claim for this reference.');
    return c.json(claimed);
  });
}
