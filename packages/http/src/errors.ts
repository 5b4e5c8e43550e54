import { ApiError } from '@erp/contract';
import type { Logger } from '@erp/logger';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';

/**
 * Turns any thrown value into `{code, params, message}` with the catalogue's status; an
 * unexpected error is logged with the request id and answered `erreur_interne`, never shown.
 */
export function createErrorHandler(logger: Logger): ErrorHandler {
  return function handleError(error, c) {
    const apiError = toApiError(error, c);
    if (apiError.code === 'erreur_interne') {
      logger.error('request failed', {
        request_id: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
    for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
    return c.json(apiError.toJSON(), apiError.status as 400);
  };
}

/** Seconds a caller stopped by a server-side limit is told to wait (`Retry-After`). */
const OVERLOAD_RETRY_AFTER_SECONDS = 5;

/**
 * A request stopped by a server-side limit (SPEC §16): a statement cancelled by
 * `statement_timeout` (SQLSTATE 57014), or no database connection within the pool's
 * `connectionTimeoutMillis` (node-pg's own messages: waiting for the pool, or opening one).
 */
export function isOverload(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === '57014') return true;
  return (
    typeof message === 'string' &&
    (message === 'timeout exceeded when trying to connect' ||
      message.startsWith('Connection terminated due to connection timeout'))
  );
}

/** The answer to an overload: 503 `surcharge` with `Retry-After`. */
export function overloaded(): ApiError {
  return new ApiError(
    'surcharge',
    'The server is busy: the request was stopped by a time limit. Retry later.',
    { retry_after: OVERLOAD_RETRY_AFTER_SECONDS },
    { headers: { 'Retry-After': String(OVERLOAD_RETRY_AFTER_SECONDS) } },
  );
}

function toApiError(error: unknown, c: Context): ApiError {
  if (error instanceof ApiError) return error;
  if (isOverload(error)) return overloaded();
  if (error instanceof HTTPException) {
    // Hono's own 4xx (malformed JSON, wrong content type, ...): the caller's fault, reported
    // as validation with the catalogue's status so code and status always agree.
    if (error.status === 413)
      return new ApiError('charge_trop_volumineuse', 'The request body is too large.');
    if (error.status < 500)
      return new ApiError('requete_invalide', error.message || 'The request is invalid.');
  }
  return new ApiError('erreur_interne', 'An unexpected error occurred.', {
    request_id: c.get('requestId'),
  });
}

/** Unknown routes answer like unknown records. */
export const notFound: NotFoundHandler = (c) =>
  c.json(new ApiError('introuvable', `No route ${c.req.method} ${c.req.path}.`).toJSON(), 404);

/** A zod failure as the SPEC's `requete_invalide`, with one issue per problem. */
export function invalidRequest(target: string, error: ZodError): ApiError {
  return new ApiError('requete_invalide', `The request ${target} is invalid.`, {
    issues: error.issues.map((issue) => ({
      location: target,
      path: issue.path.map(String).join('.'),
      code: issue.code,
      message: issue.message,
    })),
  });
}

/** The one place validation failures become responses (zod-openapi's defaultHook). */
export function validationHook(result: {
  success: boolean;
  error?: ZodError;
  target: string;
}): void {
  if (result.success || !result.error) return;
  throw invalidRequest(result.target, result.error);
}

/** The body limit's refusal, for `bodyLimit({onError})`. */
export function bodyTooLarge(limit: number): () => never {
  return () => {
    throw new ApiError('charge_trop_volumineuse', `The request body is over ${limit} bytes.`, {
      limit,
    });
  };
}
