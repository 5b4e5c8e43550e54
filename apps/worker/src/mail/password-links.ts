import {
  type AuditAction,
  generatePasswordLinkToken,
  hashPasswordLinkToken,
  PASSWORD_LINK_TTL_SECONDS,
  type PasswordLinkPurpose,
} from '@erp/contract';
import type { Logger } from '@erp/logger';
import type pg from 'pg';
import type { JobHandlers } from '../runtime/jobs';
import type { Mailer } from './mailer';
import { invitationMail, passwordResetMail } from './templates';

const RESET_REQUESTED: AuditAction = 'password_reset.requested';

export interface PasswordLinkDeps {
  pool: pg.Pool;
  mailer: Mailer;
  /** The console's origin: the links point at its `/reset-password` and `/invitation` pages. */
  consoleUrl: string;
  logger: Logger;
  now: () => Date;
}

/**
 * The mail jobs the portal queues. Each mints its link's token right before mailing it (only its
 * hash is stored), so the token exists in this process and the message only. A job that fails
 * to send is retried by graphile-worker and mints a new token; the unsent one is never known.
 */
export function passwordLinkHandlers(
  deps: PasswordLinkDeps,
): Pick<JobHandlers, 'mailPasswordReset' | 'mailInvitation'> {
  return {
    async mailPasswordReset({ email, address }, helpers) {
      const { rows } = await deps.pool.query<{ id: string; email: string; name: string }>(
        'SELECT id, email, name FROM users WHERE lower(email) = lower($1)',
        [email],
      );
      const user = rows[0];
      // No account uses the e-mail: nothing to send (the portal answered the same anyway).
      if (!user) return;
      const token = await mintLink(deps, user.id, 'password_reset', null, {
        jobId: helpers.job.id,
        email: user.email,
        address: address ?? null,
      });
      const link = `${deps.consoleUrl}/reset-password?token=${token}`;
      await deps.mailer.send({
        to: user.email,
        kind: 'password_reset',
        userId: user.id,
        link,
        ...passwordResetMail({
          name: user.name,
          email: user.email,
          link,
          minutes: PASSWORD_LINK_TTL_SECONDS.password_reset / 60,
        }),
      });
    },

    async mailInvitation({ invitation_id }) {
      // The link replaces any earlier one of the invitation; nothing if it was accepted or
      // withdrawn before the mail went.
      const token = generatePasswordLinkToken();
      const expiresAt = new Date(
        deps.now().getTime() + PASSWORD_LINK_TTL_SECONDS.invitation * 1000,
      );
      const { rows } = await deps.pool.query<{
        email: string;
        name: string;
        tenant_name: string;
        inviter_name: string | null;
      }>(
        `UPDATE invitations i SET token_hash = $2, token_expires_at = $3
         FROM tenants t
         WHERE i.id = $1 AND t.id = i.tenant_id
         RETURNING i.email, i.name, t.name AS tenant_name,
           (SELECT name FROM users WHERE id = i.invited_by) AS inviter_name`,
        [invitation_id, hashPasswordLinkToken(token), expiresAt],
      );
      const invitation = rows[0];
      if (!invitation) return;
      const link = `${deps.consoleUrl}/invitation?token=${token}`;
      await deps.mailer.send({
        to: invitation.email,
        kind: 'invitation',
        userId: invitation_id,
        link,
        ...invitationMail({
          name: invitation.name,
          email: invitation.email,
          tenantName: invitation.tenant_name,
          inviterName: invitation.inviter_name,
          link,
          days: PASSWORD_LINK_TTL_SECONDS.invitation / 86_400,
        }),
      });
    },
  };
}

/**
 * Stores a new link's hash and returns its token. The account's dead links (used or expired)
 * go in the same statement, so the table holds live links and little else. A reset link is
 * audited there too, in the log of each tenant the account belongs to (the portal never looks
 * the e-mail up, so this is where the request meets an account); once per job, although a job
 * whose mail failed mints again on its next run.
 */
async function mintLink(
  deps: PasswordLinkDeps,
  userId: string,
  purpose: PasswordLinkPurpose,
  tenantId: string | null,
  audit?: { jobId: string; email: string; address: string | null },
): Promise<string> {
  const token = generatePasswordLinkToken();
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + PASSWORD_LINK_TTL_SECONDS[purpose] * 1000);
  await deps.pool.query(
    `WITH dead AS (
       DELETE FROM password_tokens
       WHERE user_id = $1 AND (used_at IS NOT NULL OR expires_at <= $5)
     ),
     audited AS (
       INSERT INTO audit_log (tenant_id, action, target_type, target_id, address, details)
       SELECT m.tenant_id, $7::text, 'user', $1, $9::text,
         jsonb_build_object('email', $10::text, 'job_id', $8::text)
       FROM memberships m WHERE $8::text IS NOT NULL AND m.user_id = $1
       ON CONFLICT (coalesce(tenant_id, '00000000-0000-0000-0000-000000000000'::uuid), action, (details->>'job_id'))
         WHERE details ? 'job_id' DO NOTHING
     )
     INSERT INTO password_tokens (user_id, purpose, tenant_id, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, $6)`,
    [
      userId,
      purpose,
      tenantId,
      hashPasswordLinkToken(token),
      now,
      expiresAt,
      RESET_REQUESTED,
      audit?.jobId ?? null,
      audit?.address ?? null,
      audit?.email ?? null,
    ],
  );
  return token;
}
