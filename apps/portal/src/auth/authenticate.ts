import { ApiError } from '@erp/contract';
import type { Context, MiddlewareHandler } from 'hono';
import type { Deps } from '../deps';
import { setAnswerHeader } from '../http/answer-headers';
import type { AppEnv, Caller } from '../http/context';
import { publicOrigin } from '../http/public-origin';
import { hashApiKey, looksLikeApiKey, parseApiKey } from './api-key-format';
import { keyChecker, sessionChecker } from './key-coalescer';
import { effectiveKeyRights, rightsFromRoles } from './rights';
import { requireSsoUnlessExempt, ssoPolicyOf } from './sso-policy';
import { headerNamesTenant, readTenantHeader } from './tenant-header';

export interface AuthenticateOptions {
  /** Credentials the route accepts (from the contract's `security`). */
  accepts: ReadonlyArray<'session' | 'api_key'>;
  /** Whether a session must name a tenant (API keys always must). */
  tenant: 'required' | 'optional';
}

const BEARER = /^Bearer +(\S+) *$/i;

/** Resolves the caller from `Authorization: Bearer <JWT | API key>` and the tenant header. */
export function authenticate(deps: Deps, options: AuthenticateOptions): MiddlewareHandler<AppEnv> {
  return async function authenticateRequest(c, next) {
    const header = c.req.header('authorization');
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) {
      throw new ApiError(
        'non_authentifie',
        header ? 'Use `Authorization: Bearer <token>`.' : 'Authentication required.',
        {},
        { headers: { 'WWW-Authenticate': 'Bearer' } },
      );
    }
    const caller = looksLikeApiKey(token)
      ? await authenticateApiKey(deps, c, token)
      : await authenticateSession(deps, c, token, options);
    if (!options.accepts.includes(caller.kind)) {
      const required = options.accepts.includes('session') ? 'session' : 'api_key';
      throw new ApiError(
        'acces_refuse',
        `This route needs a ${required === 'session' ? 'user session' : 'API key'}.`,
        { required },
      );
    }
    c.set('caller', caller);
    await next();
  };
}

async function authenticateApiKey(deps: Deps, c: Context<AppEnv>, token: string): Promise<Caller> {
  // Keys are for servers: a browser-borne request must not even learn whether the key is valid.
  if (c.req.header('origin') !== undefined) {
    throw new ApiError(
      'origine_interdite',
      'API keys cannot be used from a browser (Origin header present).',
    );
  }
  const parts = parseApiKey(token);
  if (!parts) throw invalidKey();
  const hash = hashApiKey(parts.key, deps.apiKeyHashSecret);
  const check = await keyChecker(deps.pool, deps.env.API_KEY_RATE_LIMIT_PER_MINUTE)(
    parts.prefix,
    hash,
  );
  const row = check.row;
  if (!row) throw invalidKey();

  rateLimited(c, row.rate_limit, check);

  const tenantHeader = readTenantHeader(c);
  if (!tenantHeader) throw new ApiError('tenant_requis', 'Send the tenant in X-Tenant-ID.');
  const tenant = { id: row.tenant_id, slug: row.tenant_slug, modules: row.tenant_modules };
  if (!headerNamesTenant(tenantHeader, tenant)) {
    throw new ApiError('tenant_invalide', 'This API key belongs to another tenant.');
  }
  return {
    kind: 'api_key',
    userId: row.holder_id,
    credentialId: row.key_id,
    tenant,
    roles: row.holder_roles,
    rights: rightsOnce(
      `key\n${row.scopes.join(' ')}\n${row.holder_roles.join(' ')}`,
      row.tenant_modules,
      () => effectiveKeyRights(row.scopes, rightsFromRoles(row.holder_roles, row.tenant_modules)),
    ),
  };
}

/**
 * Rights computed once per distinct (scopes or roles, modules): every request of a key or a
 * member brings the same few, and building the sets cost each request a few µs. The sets are
 * shared, hence read-only (`Caller.rights`). Names hold no space or newline (`module:level`).
 */
const computedRights = new Map<string, ReadonlySet<string>>();
function rightsOnce(
  grants: string,
  modules: readonly string[],
  compute: () => ReadonlySet<string>,
): ReadonlySet<string> {
  const key = `${grants}\n${modules.join(' ')}`;
  let rights = computedRights.get(key);
  if (!rights) {
    rights = compute();
    if (computedRights.size >= 1000) computedRights.clear();
    computedRights.set(key, rights);
  }
  return rights;
}

/**
 * Sets the rate-limit headers every response of an authenticated request carries (errors
 * included) and refuses a request over the limit (429 `limite_depassee`, `Retry-After`).
 */
function rateLimited(
  c: Context<AppEnv>,
  limit: number,
  check: { allowed: boolean; remaining: number; resetMs: number },
): void {
  setAnswerHeader(c, 'X-RateLimit-Limit', String(limit));
  setAnswerHeader(c, 'X-RateLimit-Remaining', String(check.remaining));
  setAnswerHeader(c, 'X-RateLimit-Reset', String(Math.ceil(check.resetMs / 1000)));
  if (check.allowed) return;
  const retryAfter = Math.max(1, Math.ceil((check.resetMs - Date.now()) / 1000));
  throw new ApiError(
    'limite_depassee',
    'Rate limit exceeded.',
    { retry_after: retryAfter },
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}

/**
 * A session request: the JWT's signature and expiry, then one database call
 * (`sessionChecker`) that checks the session still lives (SPEC §13: logout, a new password or
 * a reused refresh token end it, and its access tokens with it, on every instance), reads the
 * membership of the tenant named, and takes a unit of the session's rate limit (SPEC §16: per
 * user and tenant, within the tenant's ceiling that API keys share; per user without a tenant).
 */
async function authenticateSession(
  deps: Deps,
  c: Context<AppEnv>,
  token: string,
  options: AuthenticateOptions,
): Promise<Caller> {
  const claims = await deps.tokens.verify(token, deps.now());
  if (!claims) throw invalidToken();
  const base = {
    kind: 'session' as const,
    userId: claims.userId,
    credentialId: claims.sessionId,
    ...(claims.ssoTenantId ? { ssoTenantId: claims.ssoTenantId } : {}),
  };
  const tenantHeader = readTenantHeader(c);
  if (!tenantHeader && options.tenant === 'required')
    throw new ApiError('tenant_requis', 'Send the tenant in X-Tenant.');
  const check = await sessionChecker(
    deps.pool,
    deps.env.SESSION_RATE_LIMIT_PER_MINUTE,
  )({
    userId: claims.userId,
    sessionId: claims.sessionId,
    tenant: tenantHeader,
  });
  const row = check.row;
  if (!row) throw invalidToken();
  rateLimited(c, row.rate_limit, check);
  if (!tenantHeader) return { ...base, tenant: null, roles: [], rights: new Set() };
  if (!row.tenant_id || !row.tenant_slug || !row.tenant_modules || !row.roles)
    throw new ApiError('tenant_invalide', 'You are not a member of this tenant.');
  if (claims.ssoTenantId) {
    // Another tenant's provider vouched for this person: it speaks for that tenant only.
    if (claims.ssoTenantId !== row.tenant_id)
      throw new ApiError(
        'tenant_invalide',
        'This session was opened through another tenant’s single sign-on and is limited to it.',
      );
  } else {
    requireSsoUnlessExempt(
      ssoPolicyOf(row.tenant_slug, row),
      row.roles,
      publicOrigin(c, deps.env.TRUST_PROXY),
    );
  }
  return {
    ...base,
    tenant: { id: row.tenant_id, slug: row.tenant_slug, modules: row.tenant_modules },
    roles: row.roles,
    rights: rightsOnce(`session\n${row.roles.join(' ')}`, row.tenant_modules, () =>
      rightsFromRoles(row.roles!, row.tenant_modules!),
    ),
  };
}

function invalidToken(): ApiError {
  return new ApiError(
    'jeton_invalide',
    'The access token is invalid, expired, or its session has ended.',
    {},
    { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } },
  );
}

function invalidKey(): ApiError {
  return new ApiError(
    'cle_api_invalide',
    'The API key is unknown, revoked or expired.',
    {},
    {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    },
  );
}
