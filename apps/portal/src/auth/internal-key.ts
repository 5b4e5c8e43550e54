import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '@erp/contract';
import type { MiddlewareHandler } from 'hono';

/** Guards server-to-server routes with a shared `X-API-Key`, compared in constant time. */
export function requireInternalKey(expected: string | undefined): MiddlewareHandler {
  const expectedDigest = expected ? digest(expected) : undefined;
  return async function checkInternalKey(c, next) {
    const presented = c.req.header('x-api-key');
    if (!presented) throw new ApiError('non_authentifie', 'Send the shared key in X-API-Key.');
    // Comparing digests keeps the comparison constant-time whatever the lengths.
    if (!expectedDigest || !timingSafeEqual(digest(presented), expectedDigest)) {
      throw new ApiError('cle_api_invalide', 'The X-API-Key is not valid.');
    }
    await next();
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
