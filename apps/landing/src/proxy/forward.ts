import type { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { ApiError } from '@erp/contract';
import type { Dispatcher } from 'undici';
import { hopByHopNames, isHopByHop } from './hop-by-hop';

/** One request for the portal, already validated and with its headers rewritten. */
export interface PortalRequest {
  method: string;
  /** Path and query, origin-form, validated by `publicPortalTarget`. */
  target: string;
  headers: string[];
  body?: Readable | ReadableStream<Uint8Array> | null;
  signal?: AbortSignal | EventEmitter;
  requestId: string;
}

// Responses that have no body whatever their headers say.
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** The portal's answer, hop-by-hop headers removed, ready for the client. */
export interface PortalResponse {
  status: number;
  /** Flat `[name, value, …]` (what `ServerResponse.writeHead` takes); Set-Cookie kept apart. */
  headers: string[];
  /** Null when the response cannot have one (HEAD, 204, 304…). */
  body: Readable | null;
}

/**
 * Sends one request to the portal over the keep-alive pool: status, end-to-end headers and
 * bytes come back unchanged (nothing decompressed), hop-by-hop headers dropped, X-Request-Id
 * ours. Portal unreachable → 502, no response headers in time → 504.
 */
export async function requestPortal(
  portal: Dispatcher,
  request: PortalRequest,
): Promise<PortalResponse> {
  let upstream: Dispatcher.ResponseData;
  try {
    upstream = await portal.request({
      method: request.method as Dispatcher.HttpMethod,
      path: request.target,
      headers: request.headers,
      body: request.body as Readable | null | undefined,
      signal: request.signal,
    });
  } catch (error) {
    throw portalFailure(error);
  }
  const headers = responseHeaders(upstream.headers, request.requestId);
  if (request.method === 'HEAD' || NULL_BODY_STATUSES.has(upstream.statusCode)) {
    upstream.body.resume();
    return { status: upstream.statusCode, headers, body: null };
  }
  return { status: upstream.statusCode, headers, body: upstream.body };
}

function responseHeaders(
  upstream: Record<string, string | string[] | undefined>,
  requestId: string,
): string[] {
  const dropped = hopByHopNames(upstream.connection);
  const headers: string[] = [];
  for (const name in upstream) {
    const value = upstream[name];
    if (value === undefined || name === 'x-request-id' || isHopByHop(name, dropped)) continue;
    if (Array.isArray(value)) for (const one of value) headers.push(name, one);
    else headers.push(name, value);
  }
  headers.push('x-request-id', requestId);
  return headers;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT']);
const CLIENT_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH']);

/** The ApiError for a request the portal never answered. */
function portalFailure(error: unknown): ApiError {
  const code = (error as { code?: string } | null)?.code ?? 'unknown';
  if (CLIENT_CODES.has(code)) {
    return new ApiError(
      'requete_invalide',
      'The request cannot be forwarded to the portal.',
      {},
      {
        cause: error,
      },
    );
  }
  if (TIMEOUT_CODES.has(code)) {
    return new ApiError(
      'portail_indisponible',
      'The portal did not answer in time.',
      {},
      {
        status: 504,
        cause: error,
      },
    );
  }
  return new ApiError(
    'portail_indisponible',
    'The portal cannot be reached.',
    {},
    {
      status: 502,
      cause: error,
    },
  );
}
