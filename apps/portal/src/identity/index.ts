/**
 * The door of identity: its routes, and the admin-session check other settings use.
 * Files of this folder import each other directly, never through this file.
 */
export { registerIdentityRoutes } from './routes';
export { type AdminActor, adminAuditSource, requireAdminSession } from './settings-access';
