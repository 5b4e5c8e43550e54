import { randomUUID } from 'node:crypto';
import { ApiError } from '@erp/contract';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Hono } from 'hono';
import type { LandingAppEnv } from '../deps';

/**
 * The Node request listener for landing's app. @hono/node-server refuses some request targets
 * before Hono sees them (a backslash in the path, a malformed absolute-form target, a bad Host);
 * they are answered in the SPEC's error shape too: an unusable target names no route (404).
 */
export function createLandingListener(app: Hono<LandingAppEnv>) {
  return getRequestListener(app.fetch, { errorHandler: unreadableRequest });
}

function unreadableRequest(error: unknown): Response {
  const apiError = !(error instanceof RequestError)
    ? new ApiError('erreur_interne', 'An unexpected error occurred.')
    : /host/i.test(error.message)
      ? new ApiError('requete_invalide', 'The Host header is invalid.')
      : new ApiError('introuvable', 'No route for this request target.');
  return new Response(JSON.stringify(apiError.toJSON()), {
    status: apiError.status,
    headers: { 'content-type': 'application/json', 'x-request-id': randomUUID() },
  });
}
