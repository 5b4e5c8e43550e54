import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { ApiError, SSO_STATE_TTL_SECONDS } from '@erp/contract';
import * as oidc from 'openid-client';
import { recordSignIn, type SignIn } from '../audit';
import { issueTokens, type TokenPair } from '../auth';
import type { Deps } from '../deps';
import { signInMember, type VerifiedIdentity } from './members';
import { discoverProvider } from './provider';
import { resolveReturnTo } from './return-to';
import { openSecret, SSO_CALLBACK_PATH, secretBinding } from './settings';
import { oauthErrorCode, refused, signInFailure, unavailable } from './sign-in-errors';

const SCOPE = 'openid email profile';

/** A tenant's provider as stored, the secret opened. */
async function loadProvider(deps: Deps, where: { slug: string } | { id: string }) {
  const row = await deps.db
    .selectFrom('tenants as t')
    .innerJoin('sso_settings as s', 's.tenant_id', 't.id')
    .select([
      't.id',
      't.slug',
      's.issuer',
      's.client_id',
      's.client_secret_sealed',
      's.allowed_domains',
      's.default_role',
    ])
    .where('slug' in where ? 't.slug' : 't.id', '=', 'slug' in where ? where.slug : where.id)
    .where('s.issuer', 'is not', null)
    .executeTakeFirst();
  if (!row?.issuer || !row.client_id || !row.default_role)
    throw new ApiError('introuvable', 'This tenant does not sign in through single sign-on.');
  const clientSecret = openSecret(deps, row.client_secret_sealed, secretBinding(row.id));
  if (clientSecret === undefined) {
    deps.logger.warn('sso: the client secret does not open (SECRETS_ENCRYPTION_KEY changed?)', {
      tenant: row.slug,
    });
    throw unavailable(
      'client_secret_unreadable',
      'Single sign-on is misconfigured: an admin must enter the client secret again.',
    );
  }
  return {
    tenantId: row.id,
    tenantSlug: row.slug,
    client: { issuer: row.issuer, clientId: row.client_id, clientSecret },
    join: { tenantId: row.id, allowedDomains: row.allowed_domains, defaultRole: row.default_role },
  };
}

/**
 * Starts a sign-in: checks `return_to`, discovers the provider (a provider that is down fails
 * here, before the person is sent to it), and stores state, nonce and PKCE verifier for ten
 * minutes under the state's hash. Returns the provider's authorization URL and the state,
 * which the route also puts in the browser's `erp_sso` cookie.
 */
export async function startSignIn(
  deps: Deps,
  input: { tenant: string; return_to?: string },
  origin: string,
): Promise<{ location: string; state: string }> {
  const returnTo = resolveReturnTo(input.return_to, origin);
  const provider = await loadProvider(deps, { slug: input.tenant });
  let config: oidc.Configuration;
  try {
    config = await discoverProvider(deps, provider.client);
  } catch (error) {
    throw signInFailure(error);
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const redirectUri = `${origin}${SSO_CALLBACK_PATH}`;
  const now = deps.now();
  await deps.db.deleteFrom('sso_login_states').where('expires_at', '<', now).execute();
  await deps.db
    .insertInto('sso_login_states')
    .values({
      state_hash: hashState(state),
      tenant_id: provider.tenantId,
      nonce,
      code_verifier: codeVerifier,
      redirect_uri: redirectUri,
      return_to: returnTo,
      expires_at: new Date(now.getTime() + SSO_STATE_TTL_SECONDS * 1000),
    })
    .execute();
  const location = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { location: location.href, state };
}

/**
 * Finishes a sign-in from the provider's redirect. The state is taken (deleted) first, so it
 * is good once whatever follows; it must be this browser's (`erp_sso` cookie) and unexpired.
 * Then the code is exchanged (with the PKCE verifier) and the ID token verified by
 * openid-client: issuer, audience, nonce, expiry, and the signature against the provider's key
 * set; then `email_verified`. The session opened is limited to the tenant.
 */
export async function finishSignIn(
  deps: Deps,
  query: URLSearchParams,
  browserState: string | undefined,
  clientAddress: string,
): Promise<{ tokens: TokenPair; returnTo: string; tenantSlug: string }> {
  const state = query.get('state');
  if (!state) throw invalidState('missing', 'The sign-in has no state: start again.');
  const started = await deps.db
    .deleteFrom('sso_login_states')
    .where('state_hash', '=', hashState(state))
    .returningAll()
    .executeTakeFirst();
  // Not audited: without a sign-in of ours there is no tenant to tell (anyone can call this).
  if (!started)
    throw invalidState('unknown', 'This sign-in is unknown or was already used: start again.');
  const signIn: SignIn = {
    succeeded: false,
    method: 'sso',
    email: null,
    tenant: started.tenant_id,
    address: clientAddress,
  };
  try {
    if (started.expires_at <= deps.now())
      throw invalidState('expired', 'This sign-in took too long: start again.');
    if (!browserState || !sameState(browserState, state))
      throw invalidState('other_browser', 'This sign-in was started in another browser.');

    const error = query.get('error');
    if (error) {
      // The person cancelled, or the provider would not let them in (access_denied, …).
      const code = oauthErrorCode(error);
      throw refused('provider_refused', `The identity provider refused the sign-in (${code}).`, {
        error: code,
      });
    }

    const provider = await loadProvider(deps, { id: started.tenant_id });
    let identity: VerifiedIdentity;
    try {
      const config = await discoverProvider(deps, provider.client);
      const callbackUrl = new URL(started.redirect_uri);
      callbackUrl.search = query.toString();
      const grant = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: started.code_verifier,
        expectedState: state,
        expectedNonce: started.nonce,
        idTokenExpected: true,
      });
      identity = await verifiedIdentity(config, grant);
    } catch (failure) {
      throw signInFailure(failure);
    }
    signIn.email = identity.email.toLowerCase();
    const member = await signInMember(deps, provider.join, identity, clientAddress);
    signIn.userId = member.userId;
    return {
      tokens: await issueTokens(deps, member.userId, randomUUID(), provider.tenantId, (trx) =>
        recordSignIn(trx, { ...signIn, succeeded: true, details: { joined: member.joined } }),
      ),
      returnTo: started.return_to,
      tenantSlug: provider.tenantSlug,
    };
  } catch (failure) {
    if (failure instanceof ApiError) {
      const reason = failure.params.reason;
      await recordSignIn(deps.db, {
        ...signIn,
        reason: failure.code,
        details: typeof reason === 'string' ? { detail: reason } : undefined,
      });
      deps.metrics.loginFailures.inc({ method: 'sso', reason: failure.code });
    }
    throw failure;
  }
}

/**
 * The e-mail the provider vouches for. From the ID token, or, when the provider keeps claims
 * out of it (OpenID Connect's rule for the code flow), from its UserInfo endpoint for the same
 * subject. Unverified e-mails are refused: anyone can type an address into an account.
 */
async function verifiedIdentity(
  config: oidc.Configuration,
  grant: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>,
): Promise<VerifiedIdentity> {
  const idToken = grant.claims();
  if (!idToken) throw refused('invalid_id_token', 'The provider sent no ID token.');
  let claims: Record<string, unknown> = idToken;
  if (typeof idToken.email !== 'string')
    claims = { ...(await oidc.fetchUserInfo(config, grant.access_token, idToken.sub)), ...idToken };
  const email = claims.email;
  if (typeof email !== 'string' || !email.includes('@'))
    throw refused('email_missing', 'The provider did not say who you are (no e-mail).');
  if (claims.email_verified !== true)
    throw refused('email_not_verified', 'The provider has not verified your e-mail address.');
  const given = [claims.given_name, claims.family_name].filter((p) => typeof p === 'string');
  const name =
    typeof claims.name === 'string' && claims.name.trim()
      ? claims.name.trim()
      : given.join(' ') || email.slice(0, email.indexOf('@'));
  return { email, name: name.slice(0, 200) };
}

function invalidState(reason: string, message: string): ApiError {
  return new ApiError('etat_sso_invalide', message, { reason });
}

function hashState(state: string): Buffer {
  return createHash('sha256').update(state).digest();
}

function sameState(a: string, b: string): boolean {
  return timingSafeEqual(hashState(a), hashState(b));
}
