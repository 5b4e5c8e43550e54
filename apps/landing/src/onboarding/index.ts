import { ApiError } from '@erp/contract';
import { clientAddress, readJsonBody } from '@erp/http';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { LandingAppEnv, LandingDeps } from '../deps';
import { takeHourlyUnit } from '../http/throttle';
import { claimOnboarding } from './claim';

const ClaimBodySchema = z.strictObject({ reference: z.string().min(1).max(200) });

/**
 * `POST /api/onboarding/claim {reference}`: the new tenant's first login, handed out once and
 * never cached. Throttled per address before the lookup, so references cannot be tried in bulk.
 */
export function registerOnboardingRoutes(app: Hono<LandingAppEnv>, deps: LandingDeps): void {
  app.post('/api/onboarding/claim', async function claim(c) {
    const { reference } = await readJsonBody(c, ClaimBodySchema);
    const address = clientAddress(c, deps.env.TRUST_PROXY);
    await takeHourlyUnit(
      deps.db,
      `landing:claim:${address}`,
      deps.env.ONBOARDING_CLAIM_RATE_LIMIT_PER_HOUR,
    );
    const claimed = await claimOnboarding(deps, reference);
    c.header('Cache-Control', 'no-store');
    if (!claimed) throw new ApiError('introuvable', 'No onboarding to claim for this reference.');
    deps.logger.info('onboarding claimed', {
      request_id: c.get('requestId'),
      tenant: claimed.tenant,
    });
    return c.json(claimed);
  });
}
