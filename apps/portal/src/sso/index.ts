/**
 * The door of single sign-on: its routes.
 * Files of this folder import each other directly, never through this file.
 */
export { registerSsoRoutes } from './routes';
