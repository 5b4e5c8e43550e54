import { ApiError } from '@erp/contract';

export const SSO_START_PATH = '/api/v1/auth/sso/start';

/** Where people of a tenant start signing in through its provider (`sso_requis`'s `authorize_url`). */
export function ssoStartUrl(origin: string, tenantSlug: string): string {
  return `${origin}${SSO_START_PATH}?tenant=${encodeURIComponent(tenantSlug)}`;
}

/** What a tenant's single sign-on asks of password sessions, read beside its membership. */
export interface SsoPolicy {
  tenantSlug: string;
  /** Password sessions refused (super-admins excepted). */
  enforced: boolean;
  /** An OpenID provider is configured (else only a legacy URL). */
  configured: boolean;
  legacyAuthorizeUrl: string | null;
}

/** The columns a query joining `tenants as t` and `sso_settings as s` selects for `ssoPolicyOf`. */
export const SSO_POLICY_COLUMNS = [
  's.enforced as sso_enforced',
  's.issuer as sso_issuer',
  's.legacy_authorize_url as sso_legacy_authorize_url',
] as const;

/** The policy from the columns of `SSO_POLICY_COLUMNS` (no settings row: nothing enforced). */
export function ssoPolicyOf(
  tenantSlug: string,
  row: {
    sso_enforced: boolean | null;
    sso_issuer: string | null;
    sso_legacy_authorize_url: string | null;
  },
): SsoPolicy {
  return {
    tenantSlug,
    enforced: row.sso_enforced === true,
    configured: row.sso_issuer !== null,
    legacyAuthorizeUrl: row.sso_legacy_authorize_url,
  };
}

/**
 * Refuses a password session in a tenant that enforces single sign-on (`sso_requis`, with the
 * URL to start from), unless the member is one of its super-admins: they keep a password
 * fallback, so a broken provider cannot lock a tenant out of its own settings.
 */
export function requireSsoUnlessExempt(policy: SsoPolicy, roles: string[], origin: string): void {
  if (!policy.enforced || roles.includes('super-admin')) return;
  const authorizeUrl = policy.configured
    ? ssoStartUrl(origin, policy.tenantSlug)
    : policy.legacyAuthorizeUrl;
  throw new ApiError('sso_requis', 'This tenant logs in through single sign-on.', {
    authorize_url: authorizeUrl,
  });
}
