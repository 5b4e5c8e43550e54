import * as auth from './auth';
import * as platform from './platform';
import * as settings from './settings';
import * as webhooks from './webhooks';

/** Every route of the contract, by name. The portal implements each one. */
export const routes = { ...auth, ...settings, ...webhooks, ...platform };
export type RouteName = keyof typeof routes;
export { auth, platform, settings, webhooks };
