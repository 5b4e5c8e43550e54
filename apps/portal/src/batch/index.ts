/**
 * The door of batch: its route.
 * Files of this folder import each other directly, never through this file.
 */
export { registerBatchRoutes } from './routes';
