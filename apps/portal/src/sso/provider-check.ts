import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import type { Deps } from '../deps';
import { discoverProvider, type ProviderClient, ProviderError } from './provider';
import {
  createProviderFetch,
  ProviderUnreachableError,
  RefusedProviderAddressError,
} from './provider-fetch';

/** Signing algorithms of keys a provider may sign ID tokens with (JWK `kty`). */
const SIGNING_KEY_TYPES = new Set(['RSA', 'EC', 'OKP']);

/**
 * Checks, before settings are saved, that the provider can be used: its discovery document
 * names the configured issuer and has what an authorization-code sign-in with PKCE needs, and
 * its key set holds at least one signing key. The client secret cannot be checked without a
 * person signing in; a wrong one shows as `jeton_sso_invalide` (`invalid_client`) then.
 */
export async function checkProvider(deps: Pick<Deps, 'env' | 'now'>, client: ProviderClient) {
  let config: oidc.Configuration;
  try {
    config = await discoverProvider(deps, client);
  } catch (error) {
    throw asProviderError(error, 'discovery');
  }
  const metadata = config.serverMetadata();
  const missing = (['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const).filter(
    (name) => typeof metadata[name] !== 'string',
  );
  if (missing.length > 0)
    throw new ProviderError(
      'discovery_invalid',
      `the discovery document has no ${missing.join(', ')}`,
    );
  if (metadata.response_types_supported && !metadata.response_types_supported.includes('code'))
    throw new ProviderError(
      'discovery_invalid',
      'the provider does not offer the authorization code flow (response_type code)',
    );
  if (
    metadata.code_challenge_methods_supported &&
    !metadata.code_challenge_methods_supported.includes('S256')
  )
    throw new ProviderError('discovery_invalid', 'the provider does not support PKCE with S256');
  await checkKeySet(deps, metadata.jwks_uri!);
}

async function checkKeySet(deps: Pick<Deps, 'env'>, jwksUri: string): Promise<void> {
  const providerFetch = createProviderFetch({ allowLoopback: deps.env.SSO_ALLOW_INSECURE_ISSUERS });
  let keys: JSONWebKeySet;
  try {
    const url = new URL(jwksUri);
    if (url.protocol !== 'https:' && !deps.env.SSO_ALLOW_INSECURE_ISSUERS)
      throw new ProviderError('https_required', 'the key set (jwks_uri) must use https');
    const response = await providerFetch(jwksUri, {
      method: 'GET',
      headers: { accept: 'application/json, application/jwk-set+json' },
    });
    if (response.status !== 200)
      throw new ProviderError(
        'jwks_invalid',
        `the key set (jwks_uri) answered HTTP ${response.status}`,
      );
    keys = (await response.json()) as JSONWebKeySet;
    createLocalJWKSet(keys); // throws on anything that is not a JWK set
  } catch (error) {
    throw asProviderError(error, 'jwks');
  }
  const signing = keys.keys.filter(
    (k) => SIGNING_KEY_TYPES.has(String(k.kty)) && k.use !== 'enc' && !('d' in k),
  );
  if (signing.length === 0)
    throw new ProviderError('jwks_invalid', 'the key set (jwks_uri) holds no public signing key');
}

/** Every error in a `cause` chain, the outermost first. */
export function* causes(error: unknown): Generator<unknown> {
  for (let e = error, depth = 0; e !== undefined && depth < 8; depth++) {
    yield e;
    e = e instanceof Error ? e.cause : undefined;
  }
}

function asProviderError(error: unknown, stage: 'discovery' | 'jwks'): ProviderError {
  const chain = [...causes(error)];
  const found = <T>(type: abstract new (...args: never[]) => T) =>
    chain.find((e): e is T => e instanceof type);
  const what = stage === 'discovery' ? 'the discovery document' : 'the key set (jwks_uri)';
  const providerError = found(ProviderError);
  if (providerError) return providerError;
  const refused = found(RefusedProviderAddressError);
  if (refused) return new ProviderError('private_address', refused.message, { cause: error });
  const unreachable = found(ProviderUnreachableError);
  if (unreachable)
    return new ProviderError('issuer_unreachable', unreachable.message, { cause: error });
  const code = error instanceof oidc.ClientError ? error.code : undefined;
  if (code === 'OAUTH_TIMEOUT' || code === 'OAUTH_ABORT')
    return new ProviderError('issuer_unreachable', `${what} did not arrive in time`, {
      cause: error,
    });
  if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED')
    return new ProviderError(
      'issuer_mismatch',
      'the discovery document names another issuer: use exactly the `issuer` it states',
      { cause: error },
    );
  const response = chain.find((e): e is Response => e instanceof Response);
  if (response)
    return new ProviderError(
      stage === 'discovery' ? 'discovery_invalid' : 'jwks_invalid',
      `${what} answered HTTP ${response.status}`,
      { cause: error },
    );
  return new ProviderError(
    stage === 'discovery' ? 'discovery_invalid' : 'jwks_invalid',
    `${what} is not usable${error instanceof Error ? ` (${error.message})` : ''}`,
    { cause: error },
  );
}
