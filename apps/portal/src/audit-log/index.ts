/**
 * The door of Settings → Audit log, which reads the rows `audit/` writes. A folder apart from
 * `audit/` because it sits above auth and identity (secure, the admin session), which write
 * rows themselves.
 * Files of this folder import each other directly, never through this file.
 */
export { registerAuditLogRoutes } from './routes';
