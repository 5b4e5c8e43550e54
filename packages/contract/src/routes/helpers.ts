import { z } from '@hono/zod-openapi';
import type { ErrorCode } from '../errors';

export const SESSION = { session: [] };
export const API_KEY = { apiKey: [] };
export const INTERNAL = { internalApiKey: [] };

const rateLimitHeaders = z.object({
  'X-RateLimit-Limit': z
    .string()
    .openapi({ description: 'Requests allowed per minute (API keys).' }),
  'X-RateLimit-Remaining': z
    .string()
    .openapi({ description: 'Requests left in the sliding minute.' }),
  'X-RateLimit-Reset': z
    .string()
    .openapi({ description: 'Unix seconds when a request is next given back.' }),
});

/** A JSON request body. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } };
}

/** A JSON response; `rateLimited` documents the X-RateLimit-* headers of API-key calls. */
export function jsonResponse<T extends z.ZodType>(
  schema: T,
  description: string,
  rateLimited = false,
) {
  return {
    description,
    content: { 'application/json': { schema } },
    ...(rateLimited ? { headers: rateLimitHeaders } : {}),
  };
}

export const noContent = { description: 'Done; no body.' };

/** What any session or API-key call can answer before its handler runs. */
export const CALLER_ERRORS: ErrorCode[] = [
  'requete_invalide',
  'tenant_requis',
  'non_authentifie',
  'jeton_invalide',
  'cle_api_invalide',
  'origine_interdite',
  'tenant_invalide',
  'limite_depassee',
];
