/// <reference path="./oidc-provider.d.ts" />
// Shared with e2e/browser (the console's sign-in): node's crypto only, no other dependency.
import { generateKeyPairSync, type JsonWebKey, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

type JWK = JsonWebKey & { kid?: string; alg?: string; use?: string };

/** Who the provider says signs in next (the tests' stand-in for a person typing a password). */
export interface TestIdentity {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
}

export const CLIENT_ID = 'erp-portal';
export const CLIENT_SECRET = 'test-client-secret-0123456789';

async function signingKey(): Promise<JWK> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    ...privateKey.export({ format: 'jwk' }),
    kid: `k-${randomBytes(4).toString('hex')}`,
    alg: 'RS256',
    use: 'sig',
  };
}

function publicPart(jwk: JWK): JWK {
  const { d, p, q, dp, dq, qi, ...rest } = jwk;
  return rest;
}

/**
 * A real OpenID provider (`oidc-provider`) on 127.0.0.1, in the test process. The login
 * interaction is completed programmatically with `nextIdentity`; consent is granted at once.
 * What tests can do to it: rotate its keys (a new provider instance on the same issuer),
 * publish a key set that does not match its signing key, shorten ID tokens' lives, stop and
 * start it on the same port.
 */
export async function startOidcProvider(redirectUris: string[]) {
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  const accounts = new Map<string, TestIdentity>();
  const control = {
    nextIdentity: undefined as TestIdentity | undefined,
    /** Seconds an ID token lives. */
    idTokenTtl: 600,
    /** When set, `/jwks` answers this instead of the provider's own keys. */
    jwksOverride: undefined as { keys: JWK[] } | undefined,
  };
  let keys: JWK[] = [await signingKey()];
  let provider = build();
  let handler = provider.callback();

  function build(): Provider {
    return new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: redirectUris,
          response_types: ['code'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys },
      cookies: { keys: ['test-cookie-key'] },
      claims: { email: ['email', 'email_verified'], profile: ['name'] },
      // Claims in the ID token itself, as most providers do (the portal also reads UserInfo).
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      findAccount: (_ctx: unknown, id: string) => {
        const identity = accounts.get(id);
        return identity && { accountId: id, claims: () => ({ ...identity }) };
      },
      loadExistingGrant: async (ctx: {
        oidc: {
          provider: Provider & { Grant: { find(id: string): Promise<unknown> } };
          client: { clientId: string };
          session: { accountId: string; grantIdFor(clientId: string): string | undefined };
          result?: { consent?: { grantId?: string } };
        };
      }) => {
        const { oidc } = ctx;
        const grantId =
          oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
        if (grantId) return oidc.provider.Grant.find(grantId);
        const grant = new oidc.provider.Grant({
          clientId: oidc.client.clientId,
          accountId: oidc.session.accountId,
        });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        IdToken: () => control.idTokenTtl,
        Interaction: 600,
        Session: 600,
        Grant: 600,
      },
    });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    try {
      if (req.url?.startsWith('/interaction/')) {
        const identity = control.nextIdentity;
        if (!identity) throw new Error('no nextIdentity set');
        accounts.set(identity.sub, identity);
        await provider.interactionFinished(req, res, { login: { accountId: identity.sub } });
        return;
      }
      if (control.jwksOverride && req.url === '/jwks') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(control.jwksOverride));
        return;
      }
      handler(req, res);
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  }

  return {
    issuer,
    control,
    /** The kid ID tokens are signed with now. */
    signingKid: () => keys[0]!.kid!,
    /** A new signing key; the old one is retired (no longer published). */
    async rotateKeys() {
      keys = [await signingKey()];
      provider = build();
      handler = provider.callback();
    },
    /** A key set publishing another key under the signing key's kid. */
    async publishForeignKey() {
      const foreign = await signingKey();
      control.jwksOverride = { keys: [publicPart({ ...foreign, kid: keys[0]!.kid })] };
    },
    /** Stops listening (connections refused) until `start`. */
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
    async start() {
      await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    },
    async close() {
      if (server.listening) {
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
      }
    },
  };
}

export type TestOidcProvider = Awaited<ReturnType<typeof startOidcProvider>>;
