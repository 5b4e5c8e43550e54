import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ApiError, isUuid } from '@erp/contract';
import { type Database, type Kysely, sql } from '@erp/db';
import { recordSignIn, type SignIn } from '../audit';
import type { Deps } from '../deps';
import { ACCESS_TOKEN_TTL_SECONDS } from './jwt';
import { beginLoginAttempt, endLoginAttempt } from './login-throttle';
import { verifyPassword } from './passwords';
import { requireSsoUnlessExempt, SSO_POLICY_COLUMNS, ssoPolicyOf } from './sso-policy';

/** How long a refresh token (and the cookie holding it) lives: 30 days from its issue. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
const REFRESH_TOKEN_TTL_MS = REFRESH_TOKEN_TTL_SECONDS * 1000;

export interface TokenPair {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

/**
 * Checks e-mail and password (failures throttled, SPEC §4) and opens a session. With a tenant
 * that enforces single sign-on, only its super-admins may (`sso_requis` for anyone else, with
 * the start URL on `origin`).
 */
export async function login(
  deps: Deps,
  input: { email: string; password: string; tenant?: string },
  clientAddress: string,
  origin: string,
): Promise<TokenPair> {
  const email = input.email.trim().toLowerCase();
  // Refused before any lookup or argon2 work when the pair or the address has failed too often.
  const attempt = await beginLoginAttempt(deps.db, email, clientAddress);
  let verdict: PasswordVerdict | undefined;
  try {
    verdict = await checkPassword(deps, email, input.password);
  } finally {
    // Settled whatever happened: an error before the verdict counts as a failure, as it would
    // if this instance had died, so making the check throw buys no free guess.
    await endLoginAttempt(deps.db, attempt, verdict?.valid === true);
  }
  const signIn: SignIn = {
    succeeded: false,
    method: 'password',
    email,
    userId: verdict.userId,
    tenant: input.tenant,
    address: clientAddress,
  };
  if (!verdict.valid) {
    // Recorded alike whether the e-mail has an account or not (see recordSignIn).
    await recordSignIn(deps.db, { ...signIn, reason: 'identifiants_invalides' });
    deps.metrics.loginFailures.inc({ method: 'password', reason: 'identifiants_invalides' });
    throw new ApiError('identifiants_invalides', 'E-mail or password is incorrect.');
  }
  const userId = verdict.userId!;

  if (input.tenant) {
    const tenant = await deps.db
      .selectFrom('tenants as t')
      .leftJoin('memberships as m', (j) =>
        j.onRef('m.tenant_id', '=', 't.id').on('m.user_id', '=', userId),
      )
      .leftJoin('sso_settings as s', 's.tenant_id', 't.id')
      .select(['t.slug', 'm.roles', ...SSO_POLICY_COLUMNS])
      .where(isUuid(input.tenant) ? 't.id' : 't.slug', '=', input.tenant.toLowerCase())
      .executeTakeFirst();
    try {
      if (!tenant?.roles)
        throw new ApiError('tenant_invalide', 'You are not a member of this tenant.');
      requireSsoUnlessExempt(ssoPolicyOf(tenant.slug, tenant), tenant.roles, origin);
    } catch (error) {
      if (error instanceof ApiError) {
        await recordSignIn(deps.db, { ...signIn, reason: error.code });
        deps.metrics.loginFailures.inc({ method: 'password', reason: error.code });
      }
      throw error;
    }
  }
  return issueTokens(deps, userId, randomUUID(), undefined, (trx) =>
    recordSignIn(trx, { ...signIn, succeeded: true }),
  );
}

interface PasswordVerdict {
  valid: boolean;
  /** The account using the e-mail, whether the password was right or not. */
  userId?: string;
}

/** Whether the password is the account's; the same work whether the e-mail is known or not. */
async function checkPassword(
  deps: Deps,
  email: string,
  password: string,
): Promise<PasswordVerdict> {
  const user = await deps.db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where(sql<string>`lower(email)`, '=', email)
    .executeTakeFirst();
  const valid = await verifyPassword(user?.password_hash, password);
  return { valid: Boolean(user && valid), userId: user?.id };
}

/** Rotates a refresh token. A token used twice is a theft signal: its whole family is revoked. */
export async function refresh(deps: Deps, refreshToken: string): Promise<TokenPair> {
  const tokenHash = hashToken(refreshToken);
  const now = deps.now();
  const used = await deps.db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'family_id', 'sso_tenant_id'])
    .executeTakeFirst();
  if (used) return issueTokens(deps, used.user_id, used.family_id, used.sso_tenant_id ?? undefined);

  const known = await deps.db
    .selectFrom('refresh_tokens')
    .select(['family_id', 'used_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (known?.used_at) await revokeFamily(deps, known.family_id);
  throw new ApiError('jeton_invalide', 'The refresh token is invalid, expired or already used.');
}

/** Ends the session the refresh token belongs to. Unknown tokens are ignored (no oracle). */
export async function logout(deps: Deps, refreshToken: string): Promise<void> {
  const known = await deps.db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_hash', '=', hashToken(refreshToken))
    .executeTakeFirst();
  if (known) await revokeFamily(deps, known.family_id);
}

/**
 * Opens (or, on refresh, continues) a session: a new refresh token in `familyId` and an access
 * token. `ssoTenantId`: the session was opened by that tenant's single sign-on and is limited
 * to it, for as long as the family lives. `alongside` writes in the token's transaction (the
 * sign-in's audit rows).
 */
export async function issueTokens(
  deps: Deps,
  userId: string,
  familyId: string,
  ssoTenantId?: string,
  alongside?: (trx: Kysely<Database>) => Promise<void>,
): Promise<TokenPair> {
  const now = deps.now();
  const refreshToken = `rt_${randomBytes(32).toString('base64url')}`;
  const insert = (db: Kysely<Database>) =>
    db
      .insertInto('refresh_tokens')
      .values({
        family_id: familyId,
        user_id: userId,
        token_hash: hashToken(refreshToken),
        expires_at: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
        sso_tenant_id: ssoTenantId ?? null,
      })
      .execute();
  if (alongside) {
    await deps.db.transaction().execute(async (trx) => {
      await insert(trx);
      await alongside(trx);
    });
  } else {
    await insert(deps.db);
  }
  return {
    access_token: await deps.tokens.sign(
      { userId, sessionId: familyId, ...(ssoTenantId ? { ssoTenantId } : {}) },
      now,
    ),
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refreshToken,
  };
}

/** Ends every session of a user (a new password): all their refresh tokens are revoked. */
export async function revokeUserSessions(
  db: Kysely<Database>,
  userId: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

async function revokeFamily(deps: Deps, familyId: string): Promise<void> {
  await deps.db
    .updateTable('refresh_tokens')
    .set({ revoked_at: deps.now() })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
