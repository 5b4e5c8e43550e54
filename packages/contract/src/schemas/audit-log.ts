import { z } from '@hono/zod-openapi';
import { pageQueryShape, TimestampSchema, UuidSchema } from './common';

/**
 * Every action the audit log records (SPEC §12), with what it means. The one definition of the
 * names: the portal and the worker write only these, the API filters and documents them.
 */
export const auditActions = {
  'api_key.created': 'An API key was created (details: name, prefix, scopes, expires_at).',
  'api_key.rolled':
    'An API key was replaced (target: the new key; details: previous_id, expire_previous_in_hours).',
  'api_key.revoked': 'An API key was revoked.',
  'webhook.created': 'A webhook subscription was created (details: url, events, enabled).',
  'webhook.updated':
    'A webhook subscription was changed (details: the fields sent, re-enabling included).',
  'webhook.deleted': 'A webhook subscription was deleted (details: url).',
  'webhook.secret_rotated':
    "A webhook subscription's signing secret was rotated (details: expire_previous_in_hours).",
  'webhook.disabled':
    'The platform disabled a webhook subscription whose endpoint kept failing or answered 410 (details: reason, failing_since, consecutive_failures).',
  'member.added':
    'A person became a member (by accepting an invitation, or through single sign-on; details: email, roles).',
  'member.updated': "A member's roles were changed (details: changed, roles, previous_roles).",
  'member.removed': 'A member was removed from the tenant (details: email, roles).',
  'invitation.sent':
    'A person was invited, or invited again (target: the invitation; details: email, roles).',
  'invitation.updated':
    "An invitation's roles were changed (target: the invitation; details: roles, previous_roles).",
  'invitation.withdrawn': 'An invitation was withdrawn (target: the invitation; details: email).',
  'invitation.accepted':
    'The invited person accepted and became a member (target: the account; details: email, how).',
  'sso.updated':
    'Single sign-on settings were saved (details: issuer, client_id, allowed_domains, default_role, enforced, client_secret_changed).',
  'sso.deleted': 'Single sign-on was removed.',
  'login.succeeded': 'Someone signed in (details: method password or sso, email).',
  'login.failed':
    'A sign-in was refused (details: method, email, reason: the error code answered).',
  'password_reset.requested':
    'A password reset link was asked for an account of a member (details: email).',
  'password_reset.completed': 'A member set a new password with a reset link.',
} as const;

export type AuditAction = keyof typeof auditActions;
export const AUDIT_ACTIONS = Object.keys(auditActions) as [AuditAction, ...AuditAction[]];

/** What an audit row is about. */
export const AUDIT_TARGET_TYPES = [
  'api_key',
  'webhook_subscription',
  'user',
  'invitation',
  'sso_settings',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const AuditActionSchema = z.enum(AUDIT_ACTIONS).openapi('AuditAction', {
  description: Object.entries(auditActions)
    .map(([name, meaning]) => `- \`${name}\`: ${meaning}`)
    .join('\n'),
});

export const AuditActorSchema = z
  .object({
    type: z.enum(['user', 'api_key']),
    id: UuidSchema,
    name: z.string().nullable().openapi({
      description: "The user's or key's current name; null once it was deleted.",
    }),
  })
  .openapi('AuditActor');

export const AuditEntrySchema = z
  .object({
    id: UuidSchema,
    at: TimestampSchema,
    action: AuditActionSchema,
    // A union, not .nullable(): that would make the named component itself nullable.
    actor: z.union([AuditActorSchema, z.null()]).openapi({
      description:
        'Who did it: a user (a session) or an API key. Null when the platform did it (a webhook endpoint disabled) or when nobody of this tenant is known (a failed sign-in with an e-mail that is not a member).',
    }),
    target: z
      .object({ type: z.enum(AUDIT_TARGET_TYPES), id: UuidSchema })
      .nullable()
      .openapi({ description: 'What the operation was about.' }),
    address: z.string().nullable().openapi({
      description: "The client's address as the portal saw it; null for the platform's own acts.",
      example: '203.0.113.7',
    }),
    details: z.record(z.string(), z.unknown()).openapi({
      description: 'What else is useful to know; never a secret, token, password or key.',
    }),
  })
  .openapi('AuditEntry');

export const AuditLogSchema = z
  .object({
    data: z.array(AuditEntrySchema),
    next_cursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  })
  .openapi('AuditLog');

export const AuditLogQuerySchema = z.object({
  action: AuditActionSchema.optional().openapi({ description: 'Only rows of this action.' }),
  actor: UuidSchema.optional().openapi({
    description: 'Only rows whose actor (a user or an API key) has this id.',
  }),
  ...pageQueryShape(200),
});
