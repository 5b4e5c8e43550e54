import * as oidc from 'openid-client';
import type { Deps } from '../deps';
import { createProviderFetch, PROVIDER_TIMEOUT_MS } from './provider-fetch';

/** What the portal needs to talk to a tenant's OpenID provider. */
export interface ProviderClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** The provider's answers openid-client could not use, by the check that failed. */
export type ProviderProblem =
  | 'https_required'
  | 'private_address'
  | 'issuer_unreachable'
  | 'issuer_mismatch'
  | 'discovery_invalid'
  | 'jwks_invalid';

/** A provider that cannot be used as configured: what is wrong, in words an admin can act on. */
export class ProviderError extends Error {
  constructor(
    readonly problem: ProviderProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ProviderError';
  }
}

/**
 * Whether an issuer's scheme and host are allowed before anything is fetched: `https`, or with
 * `SSO_ALLOW_INSECURE_ISSUERS` also `http` to a loopback host (development and tests). Where
 * the host's addresses may point is the fetch's check, at connection time.
 */
export function checkIssuerScheme(deps: Pick<Deps, 'env'>, issuer: string): void {
  const url = new URL(issuer);
  if (url.protocol === 'https:') return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || /^127\./.test(host) || host === '::1';
  if (!(deps.env.SSO_ALLOW_INSECURE_ISSUERS && loopback))
    throw new ProviderError(
      'https_required',
      deps.env.SSO_ALLOW_INSECURE_ISSUERS
        ? 'the issuer must use https (http is allowed on loopback addresses only)'
        : 'the issuer must use https',
    );
}

/**
 * Discovers the provider (`/.well-known/openid-configuration`, whose `issuer` must be exactly
 * the configured one) and builds a client for one sign-in. A fresh client each time: its key
 * set is fetched when the ID token is checked, so a provider that rotated its keys since the
 * last sign-in is followed at once, and a sign-in is rare enough for the round trips not to
 * matter. ID token signatures are always checked against that key set (openid-client skips
 * them by default for tokens from the token endpoint, trusting TLS alone).
 */
export async function discoverProvider(
  deps: Pick<Deps, 'env' | 'now'>,
  client: ProviderClient,
): Promise<oidc.Configuration> {
  checkIssuerScheme(deps, client.issuer);
  const insecure = deps.env.SSO_ALLOW_INSECURE_ISSUERS;
  const providerFetch = createProviderFetch({ allowLoopback: insecure });
  const options = {
    [oidc.customFetch]: providerFetch as oidc.CustomFetch,
    timeout: PROVIDER_TIMEOUT_MS / 1000,
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
  };
  const discovered = await oidc.discovery(
    new URL(client.issuer),
    client.clientId,
    undefined,
    undefined,
    options,
  );
  const metadata = discovered.serverMetadata();
  const config = new oidc.Configuration(
    metadata,
    client.clientId,
    {
      client_secret: client.clientSecret,
      // The portal's clock (tests move it) is the one ID token expiry is judged by.
      [oidc.clockSkew]: Math.round((deps.now().getTime() - Date.now()) / 1000),
    },
    clientAuthentication(metadata, client.clientSecret),
  );
  config[oidc.customFetch] = providerFetch as oidc.CustomFetch;
  config.timeout = PROVIDER_TIMEOUT_MS / 1000;
  if (insecure) oidc.allowInsecureRequests(config);
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/** `client_secret_basic` (OAuth's default) unless the provider only takes `client_secret_post`. */
function clientAuthentication(metadata: oidc.ServerMetadata, secret: string): oidc.ClientAuth {
  const methods = metadata.token_endpoint_auth_methods_supported;
  return methods &&
    !methods.includes('client_secret_basic') &&
    methods.includes('client_secret_post')
    ? oidc.ClientSecretPost(secret)
    : oidc.ClientSecretBasic(secret);
}
