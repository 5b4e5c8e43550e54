import { ApiError } from '@erp/contract';
import * as oidc from 'openid-client';
import { ProviderError } from './provider';
import { causes } from './provider-check';
import { ProviderUnreachableError, RefusedProviderAddressError } from './provider-fetch';

/** Why an ID token or the provider's answer was refused (`jeton_sso_invalide`'s `params.reason`). */
export type RefusalReason =
  | 'provider_refused'
  | 'signature'
  | 'nonce'
  | 'issuer'
  | 'audience'
  | 'expired'
  | 'not_yet_valid'
  | 'email_missing'
  | 'email_not_verified'
  | 'invalid_id_token';

/** The ID token or the provider's answer is refused: 401 `jeton_sso_invalide`. */
export function refused(reason: RefusalReason, message: string, extra: object = {}): ApiError {
  return new ApiError('jeton_sso_invalide', message, { reason, ...extra });
}

/** The provider cannot be used right now: 502 `fournisseur_sso_indisponible`. */
export function unavailable(reason: string, message: string): ApiError {
  return new ApiError('fournisseur_sso_indisponible', message, { reason });
}

const CLAIM_REASONS: Record<string, RefusalReason> = {
  nonce: 'nonce',
  iss: 'issuer',
  aud: 'audience',
  azp: 'audience',
};

/** An OAuth error code as the provider sent it, kept only if it looks like one (it is echoed). */
export function oauthErrorCode(value: unknown): string {
  return typeof value === 'string' && /^[\w.-]{1,64}$/.test(value) ? value : 'unknown';
}

/**
 * What a failure while talking to the provider or checking its answer means to the person
 * signing in: the provider is down or broken (502), or it refused, or its ID token failed a
 * check (401, with the check). Nothing here is a 500: anything unrecognised is the provider's
 * answer being unusable.
 */
export function signInFailure(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const chain = [...causes(error)];
  if (chain.some((e) => e instanceof RefusedProviderAddressError))
    return unavailable(
      'refused_address',
      'The identity provider is on an address the portal may not reach.',
    );
  const providerError = chain.find((e): e is ProviderError => e instanceof ProviderError);
  if (providerError)
    return unavailable(
      providerError.problem,
      `The identity provider cannot be used: ${providerError.message}.`,
    );
  if (chain.some((e) => e instanceof ProviderUnreachableError))
    return unavailable('unreachable', 'The identity provider could not be reached.');
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError)
    return refused(
      'provider_refused',
      `The identity provider refused the sign-in (${oauthErrorCode(error.error)}).`,
      { error: oauthErrorCode(error.error) },
    );
  const code = error instanceof oidc.ClientError ? error.code : undefined;
  const detail = chain.find(
    (e): e is Error & { cause: { claim?: string } } =>
      e instanceof Error && typeof e.cause === 'object' && e.cause !== null && 'claim' in e.cause,
  )?.cause;
  switch (code) {
    case 'OAUTH_TIMEOUT':
    case 'OAUTH_ABORT':
      return unavailable('timeout', 'The identity provider did not answer in time.');
    case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED': {
      const reason = CLAIM_REASONS[detail?.claim ?? ''] ?? 'invalid_id_token';
      return refused(reason, `The ID token's ${detail?.claim ?? 'claims'} did not match.`);
    }
    case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
      return detail?.claim === 'exp'
        ? refused('expired', 'The ID token has expired.')
        : refused('not_yet_valid', `The ID token's ${detail?.claim ?? 'time'} is in the future.`);
    case 'OAUTH_KEY_SELECTION_FAILED':
      return refused('signature', 'The ID token is signed by a key the provider does not publish.');
    case 'OAUTH_RESPONSE_IS_NOT_CONFORM':
    case 'OAUTH_RESPONSE_IS_NOT_JSON':
    case 'OAUTH_PARSE_ERROR':
    case 'OAUTH_INVALID_SERVER_METADATA':
    case 'OAUTH_MISSING_SERVER_METADATA':
    case 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED':
      return unavailable('invalid_response', 'The identity provider answered with an error.');
  }
  if (chain.some((e) => e instanceof Error && /signature verification failed/i.test(e.message)))
    return refused(
      'signature',
      'The ID token’s signature does not verify with the provider’s keys.',
    );
  return refused('invalid_id_token', 'The identity provider’s answer could not be verified.');
}
