/**
 * The door of the console: its routes (registered last).
 * Files of this folder import each other directly, never through this file.
 */
export { registerConsoleRoutes } from './routes';
