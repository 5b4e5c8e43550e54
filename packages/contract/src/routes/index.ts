import * as auth from './auth';
import * as platform from './platform';
import * as portalAccess from './portal-access';
import * as settings from './settings';
import * as sso from './sso';
import * as webhooks from './webhooks';

/** Every route of the contract, by name. The portal implements each one. */
export const routes = { ...auth, ...settings, ...portalAccess, ...webhooks, ...platform, ...sso };
export type RouteName = keyof typeof routes;
export { auth, platform, portalAccess, settings, sso, webhooks };
