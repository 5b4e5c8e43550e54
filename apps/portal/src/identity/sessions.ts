import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ApiError, isUuid } from '@erp/contract';
import { sql } from '@erp/db';
import { ACCESS_TOKEN_TTL_SECONDS } from '../auth/jwt';
import { verifyPassword } from '../auth/passwords';
import { takeRateLimit } from '../auth/rate-limit';
import type { Deps } from '../deps';

const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Attempts allowed per window: per e-mail (guessing one account), per address (spraying). */
export const LOGIN_LIMITS = { perEmail: 10, perAddress: 100 };

export interface TokenPair {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

/** Checks e-mail and password (throttled) and opens a session. */
export async function login(
  deps: Deps,
  input: { email: string; password: string; tenant?: string },
  clientAddress: string,
): Promise<TokenPair> {
  const email = input.email.trim().toLowerCase();
  const verdict = await takeRateLimit(
    deps.db,
    [`login:email:${email}`, `login:addr:${clientAddress}`],
    [LOGIN_LIMITS.perEmail, LOGIN_LIMITS.perAddress],
    LOGIN_WINDOW_MS,
  );
  if (!verdict.allowed) {
    throw new ApiError(
      'limite_depassee',
      'Too many login attempts; try again later.',
      { retry_after: verdict.retryAfter },
      {
        headers: { 'Retry-After': String(verdict.retryAfter) },
      },
    );
  }

  const user = await deps.db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where(sql<string>`lower(email)`, '=', email)
    .executeTakeFirst();
  // The same work and the same answer whether the e-mail is unknown or the password wrong.
  const valid = await verifyPassword(user?.password_hash, input.password);
  if (!user || !valid)
    throw new ApiError('identifiants_invalides', 'E-mail or password is incorrect.');

  if (input.tenant) {
    const tenant = await deps.db
      .selectFrom('tenants as t')
      .leftJoin('memberships as m', (j) =>
        j.onRef('m.tenant_id', '=', 't.id').on('m.user_id', '=', user.id),
      )
      .select(['t.sso_authorize_url', 'm.user_id'])
      .where(isUuid(input.tenant) ? 't.id' : 't.slug', '=', input.tenant.toLowerCase())
      .executeTakeFirst();
    if (!tenant?.user_id)
      throw new ApiError('tenant_invalide', 'You are not a member of this tenant.');
    if (tenant.sso_authorize_url) {
      throw new ApiError('sso_requis', 'This tenant logs in through single sign-on.', {
        authorize_url: tenant.sso_authorize_url,
      });
    }
  }
  return issueTokens(deps, user.id, randomUUID());
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
    .returning(['user_id', 'family_id'])
    .executeTakeFirst();
  if (used) return issueTokens(deps, used.user_id, used.family_id);

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

async function issueTokens(deps: Deps, userId: string, familyId: string): Promise<TokenPair> {
  const now = deps.now();
  const refreshToken = `rt_${randomBytes(32).toString('base64url')}`;
  await deps.db
    .insertInto('refresh_tokens')
    .values({
      family_id: familyId,
      user_id: userId,
      token_hash: hashToken(refreshToken),
      expires_at: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
    })
    .execute();
  return {
    access_token: await deps.tokens.sign({ userId, sessionId: familyId }, now),
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refreshToken,
  };
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
