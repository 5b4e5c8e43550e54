import * as accounting from './accounting';
import * as auditLog from './audit-log';
import * as auth from './auth';
import * as batch from './batch';
import * as einvoicing from './einvoicing';
import * as passwordLinks from './password-links';
import * as platform from './platform';
import * as portalAccess from './portal-access';
import * as settings from './settings';
import * as sso from './sso';
import * as webhooks from './webhooks';

/** Every route of the contract, by name. The portal implements each one. */
export const routes = {
  ...accounting,
  ...auth,
  ...passwordLinks,
  ...settings,
  ...portalAccess,
  ...webhooks,
  ...platform,
  ...sso,
  ...batch,
  ...auditLog,
  ...einvoicing,
};
export type RouteName = keyof typeof routes;
export {
  accounting,
  auditLog,
  auth,
  batch,
  einvoicing,
  passwordLinks,
  platform,
  portalAccess,
  settings,
  sso,
  webhooks,
};
