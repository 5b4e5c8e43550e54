/**
 * What the portal and the worker share about the links that set a password (SPEC §13): the
 * jobs the portal enqueues, how long each kind of link lives, and the token's form and hash.
 * The worker mints and mails a token; the portal consumes it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { UuidSchema } from '../schemas/common';

/** The payloads of the mail jobs the portal enqueues (see `jobs` in ./jobs.ts). */
export const PasswordResetMailPayloadSchema = z.object({
  email: z.string().min(1).max(254),
  /** Who asked, for the audit log (absent from jobs queued before it was recorded). */
  address: z.string().max(100).optional(),
});
export type PasswordResetMailPayload = z.infer<typeof PasswordResetMailPayloadSchema>;

/** An invitation (SPEC §3) to mail: the worker reads it, mints its link and mails it. */
export const InvitationMailPayloadSchema = z.object({ invitation_id: UuidSchema });
export type InvitationMailPayload = z.infer<typeof InvitationMailPayloadSchema>;

export type PasswordLinkPurpose = 'password_reset' | 'invitation';

/** How long a link lives once mailed: 30 minutes for a reset, 7 days for an invitation. */
export const PASSWORD_LINK_TTL_SECONDS: Record<PasswordLinkPurpose, number> = {
  password_reset: 30 * 60,
  invitation: 7 * 24 * 3600,
};

/** A new link token: 256 random bits, URL-safe, `pwt_` so scanners and people recognise it. */
export function generatePasswordLinkToken(): string {
  return `pwt_${randomBytes(32).toString('base64url')}`;
}

/** What is stored of a token: its SHA-256 (it is high-entropy; argon2 is for passwords). */
export function hashPasswordLinkToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
