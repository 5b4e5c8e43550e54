import * as auth from './auth';
import * as platform from './platform';
import * as settings from './settings';

/** Every route of the contract, by name. The portal implements each one. */
export const routes = { ...auth, ...settings, ...platform };
export type RouteName = keyof typeof routes;
export { auth, platform, settings };
