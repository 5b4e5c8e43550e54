/**
 * The door of webhooks: its routes, and the host resolution main.ts gives the app.
 * Files of this folder import each other directly, never through this file.
 */
export { registerWebhookRoutes } from './routes';
export { resolveHostAddresses } from './url-check';
