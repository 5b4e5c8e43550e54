import {
  ApiError,
  hashPasswordLinkToken,
  jobs,
  PASSWORD_LINK_TTL_SECONDS,
  type PasswordLinkPurpose,
} from '@erp/contract';
import { type Database, enqueueJob, type Kysely, takeRateLimitUnit } from '@erp/db';
import { recordAudit } from '../audit';
import type { Deps } from '../deps';
import { throttleKey } from './login-throttle';
import { hashPassword } from './passwords';
import { revokeUserSessions } from './sessions';

/**
 * Reset requests allowed per sliding hour (SPEC §13): per e-mail, which bounds the mails one
 * inbox can be sent, and per client address, which bounds one sender. A stranger who spends an
 * e-mail's budget cannot lock its owner out: every request they made mailed the owner a link.
 */
export const PASSWORD_RESET_LIMITS = { perEmail: 5, perAddress: 20 };
const HOUR_MS = 3_600_000;

/**
 * Asks for a reset link. The answer and its time do not depend on whether an account uses the
 * e-mail, because the portal never looks: it throttles, then queues a job with the e-mail in
 * one and the same statement either way, and the worker finds the account (or none) and mails
 * the link. The token is minted by the worker just before it is mailed, so it never sits in the
 * job queue.
 */
export async function requestPasswordReset(
  deps: Deps,
  email: string,
  clientAddress: string,
): Promise<{ expires_in: number }> {
  const normalised = email.trim().toLowerCase();
  const verdict = await takeRateLimitUnit(
    deps.db,
    [
      { key: `password_reset:email:${normalised}`, limit: PASSWORD_RESET_LIMITS.perEmail },
      {
        key: `password_reset:address:${throttleKey(clientAddress)}`,
        limit: PASSWORD_RESET_LIMITS.perAddress,
      },
    ],
    HOUR_MS,
  );
  if (!verdict.allowed) {
    const retryAfter = verdict.retryAfterSeconds;
    throw new ApiError(
      'limite_depassee',
      `Too many password reset requests; retry in ${retryAfter} s.`,
      { retry_after: retryAfter },
      { headers: { 'Retry-After': String(retryAfter) } },
    );
  }
  await enqueueJob(deps.db, jobs.mailPasswordReset, { email: normalised, address: clientAddress });
  return { expires_in: PASSWORD_LINK_TTL_SECONDS.password_reset };
}

export interface PasswordSet {
  email: string;
  purpose: PasswordLinkPurpose;
  tenant: string | null;
}

/**
 * Sets the password of a reset or invitation link's account: the link is used up, and so is
 * every other link of the account (they were issued for the old password), and every session
 * of the account ends. argon2 runs only for a live link, so made-up tokens cost no hashing.
 */
export async function setPasswordWithLink(
  deps: Deps,
  input: { token: string; password: string },
  clientAddress: string,
): Promise<PasswordSet> {
  const tokenHash = hashPasswordLinkToken(input.token);
  const link = await findLink(deps.db, tokenHash);
  refuseUnusable(link, deps.now());
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.now();
    // The use itself is conditional: of two concurrent uses, one finds the link used.
    const used = await trx
      .updateTable('password_tokens')
      .set({ used_at: now })
      .where('id', '=', link.id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('id')
      .executeTakeFirst();
    if (!used) refuseUnusable(await findLink(trx, tokenHash), now);
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('id', '=', link.user_id)
      .execute();
    await trx
      .updateTable('password_tokens')
      .set({ used_at: now })
      .where('user_id', '=', link.user_id)
      .where('used_at', 'is', null)
      .execute();
    await revokeUserSessions(trx, link.user_id, now);
    // An invitation is its tenant's news; a new password concerns every tenant of the account.
    const tenants = link.tenant_id
      ? [link.tenant_id]
      : (
          await trx
            .selectFrom('memberships')
            .select('tenant_id')
            .where('user_id', '=', link.user_id)
            .execute()
        ).map((m) => m.tenant_id);
    await recordAudit(
      trx,
      { actor: { type: 'user', id: link.user_id }, address: clientAddress },
      ...tenants.map((tenantId) => ({
        tenantId,
        action:
          link.purpose === 'invitation'
            ? ('invitation.accepted' as const)
            : ('password_reset.completed' as const),
        target: { type: 'user' as const, id: link.user_id },
        details: { email: link.email },
      })),
    );
    return { email: link.email, purpose: link.purpose, tenant: link.tenant_slug };
  });
}

type Link = NonNullable<Awaited<ReturnType<typeof findLink>>>;

function findLink(db: Kysely<Database>, tokenHash: Buffer) {
  return db
    .selectFrom('password_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('tenants as tn', 'tn.id', 't.tenant_id')
    .select([
      't.id',
      't.user_id',
      't.purpose',
      't.tenant_id',
      't.expires_at',
      't.used_at',
      'u.email',
      'tn.slug as tenant_slug',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

function refuseUnusable(link: Link | undefined, now: Date): asserts link is Link {
  if (!link) throw linkRefused('unknown', 'This link is not valid: ask for a new one.');
  if (link.used_at)
    throw linkRefused('used', 'This link has already been used: ask for a new one if needed.');
  if (new Date(link.expires_at) <= now)
    throw linkRefused('expired', 'This link has expired: ask for a new one.');
}

function linkRefused(reason: 'unknown' | 'used' | 'expired', message: string): ApiError {
  return new ApiError('lien_invalide', message, { reason });
}
