import type { LandingDeps } from './deps';

/** The purge's schedule: hourly, off the hour. */
export const PURGE_ONBOARDINGS_SCHEDULE = '17 * * * *';

/**
 * Erases the first passwords nobody claimed within their 24 hours: landing no longer hands
 * them out, so keeping them would only leave a secret at rest. The rows stay (who bought what).
 */
export function purgeOnboardingsHandler(deps: Pick<LandingDeps, 'pool' | 'logger'>) {
  return async function purgeOnboardings() {
    const { rowCount } = await deps.pool.query(
      `UPDATE landing.onboardings SET initial_password = NULL
       WHERE initial_password IS NOT NULL AND expires_at <= now()`,
    );
    if (rowCount) deps.logger.info('expired onboarding passwords erased', { count: rowCount });
  };
}
