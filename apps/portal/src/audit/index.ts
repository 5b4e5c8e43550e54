/**
 * The door of the audit trail: what every feature calls to write audit rows (no routes; the
 * list is `audit-log/`). It imports no feature, so auth, identity, sso and webhooks can use it.
 * Files of this folder import each other directly, never through this file.
 */
export { type AuditEntry, type AuditSource, auditSourceOf, recordAudit } from './record';
export { recordSignIn, type SignIn } from './sign-ins';
