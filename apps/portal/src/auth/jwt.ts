import { randomUUID } from 'node:crypto';
import {
  type CryptoKey,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  importPKCS8,
  importSPKI,
  jwtVerify,
  SignJWT,
} from 'jose';

const ALG = 'EdDSA';
const ISSUER = 'erp-portal';
const AUDIENCE = 'erp-api';
export const ACCESS_TOKEN_TTL_SECONDS = 900;

export interface AccessTokenClaims {
  userId: string;
  sessionId: string;
  /** Set when a tenant's single sign-on opened the session: it is limited to that tenant. */
  ssoTenantId?: string;
}

export interface TokenSigner {
  sign(claims: AccessTokenClaims, now: Date): Promise<string>;
  /** Resolves the claims, or null for any bad, foreign or expired token. */
  verify(token: string, now: Date): Promise<AccessTokenClaims | null>;
}

/** Ed25519-signed access tokens (keys imported once). */
export async function createTokenSigner(
  privatePem: string,
  publicPem: string,
): Promise<TokenSigner> {
  const privateKey = await importPKCS8(privatePem, ALG);
  const publicKey = await importSPKI(publicPem, ALG);
  return {
    sign: ({ userId, sessionId, ssoTenantId }, now) => {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ sid: sessionId, ...(ssoTenantId ? { tid: ssoTenantId } : {}) })
        .setProtectedHeader({ alg: ALG, typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
        .setJti(randomUUID())
        .sign(privateKey);
    },
    verify: async (token, now) => {
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          algorithms: [ALG],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: now,
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        if (payload.tid !== undefined && typeof payload.tid !== 'string') return null;
        return {
          userId: payload.sub,
          sessionId: payload.sid,
          ...(payload.tid ? { ssoTenantId: payload.tid } : {}),
        };
      } catch {
        return null;
      }
    },
  };
}

/** A fresh Ed25519 key pair as PEM (development and tests). */
export async function generateSigningKeys(): Promise<{ privateKey: string; publicKey: string }> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, {
    crv: 'Ed25519',
    extractable: true,
  });
  return {
    privateKey: await exportPKCS8(privateKey as CryptoKey),
    publicKey: await exportSPKI(publicKey as CryptoKey),
  };
}
