import * as auditLog from './audit-log';
import * as auth from './auth';
import * as passwordLinks from './password-links';
import * as platform from './platform';
import * as portalAccess from './portal-access';
import * as settings from './settings';
import * as sso from './sso';
import * as webhooks from './webhooks';

/** Every route of the contract, by name. The portal implements each one. */
export const routes = {
  ...auth,
  ...passwordLinks,
  ...settings,
  ...portalAccess,
  ...webhooks,
  ...platform,
  ...sso,
  ...auditLog,
};
export type RouteName = keyof typeof routes;
export { auditLog, auth, passwordLinks, platform, portalAccess, settings, sso, webhooks };
