/**
 * The door of platform: its routes.
 * Files of this folder import each other directly, never through this file.
 */
export { registerPlatformRoutes } from './routes';
