import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '@erp/contract';
import type { MiddlewareHandler } from 'hono';

/**
 * Guards a server-to-server route with a shared `X-API-Key` (SPEC §4), compared in constant
 * time, before anything reads the body. An unset `expected` refuses every key.
 */
export function requireSharedKey(expected: string | undefined): MiddlewareHandler {
  const expectedDigest = expected ? digest(expected) : undefined;
  return async function checkSharedKey(c, next) {
    const presented = c.req.header('x-api-key');
    if (!presented) throw new ApiError('non_authentifie', 'Send the shared key in X-API-Key.');
    // Digests have one length, so the comparison takes the same time whatever was sent.
    if (!expectedDigest || !timingSafeEqual(digest(presented), expectedDigest)) {
      throw new ApiError('cle_api_invalide', 'The X-API-Key is not valid.');
    }
    await next();
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
