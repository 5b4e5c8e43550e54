import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ApiError, type ErrorCode } from '@erp/contract';
import { getRequestListener, type HttpBindings, RequestError } from '@hono/node-server';

/** An app's `fetch`, called with what @hono/node-server binds to an HTTP/1.1 request. */
export type FetchHandler = (
  request: Request,
  bindings: HttpBindings,
) => Response | Promise<Response>;

/**
 * How long a connection we are closing keeps reading (and discarding) what the client still
 * sends. Closing a socket with unread data makes the kernel answer RST, and a client still
 * uploading then loses the response it was about to read (nginx's "lingering close").
 */
const LINGER_MS = 5_000;
const LINGERING = Symbol('lingering');

/**
 * The Node request listener of an HTTP app. Two things the app cannot see are handled here:
 * - a request target or Host that @hono/node-server cannot turn into a Request gets the error
 *   shape (an unusable target names no route: 404);
 * - an answer given before the request body has fully arrived (413, or an early refusal) says
 *   `Connection: close` and lingers, so a pooled client never reuses a connection we are about
 *   to close, and never loses the answer to a reset.
 */
export function createNodeListener(fetch: FetchHandler) {
  return getRequestListener(
    async (request, env) => {
      // createHttpServer serves HTTP/1.1 only: the bindings are node:http's.
      const bindings = env as HttpBindings;
      const response = await fetch(request, bindings);
      if (!bindings.outgoing.headersSent) closeIfAnsweredEarly(bindings.outgoing);
      return response;
    },
    { errorHandler: unreadableRequest },
  );
}

/**
 * An HTTP server for an app: the listener above, and errors raised by `node:http` before any
 * request exists (header overflow, a malformed request line, a request too slow to arrive)
 * answered in the error shape with an `X-Request-Id` instead of Node's bare status line.
 */
export function createHttpServer(fetch: FetchHandler): Server {
  const server = createServer(createNodeListener(fetch));
  server.on('clientError', answerClientError);
  return server;
}

export interface RunningServer {
  server: Server;
  /** The port actually bound (useful with port 0). */
  port: number;
  url: string;
  /** Stops accepting, lets in-flight requests finish, drops idle keep-alive connections. */
  close(): Promise<void>;
}

/** Creates the app's server and listens; resolves once bound. */
export async function serveApp(options: {
  fetch: FetchHandler;
  port: number;
  host: string;
}): Promise<RunningServer> {
  const server = createHttpServer(options.fetch);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

/** The error `node:http` raised, as the product's error: status and code from the catalogue. */
export function clientErrorFor(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        'en_tetes_trop_volumineux',
        'The request headers are too large (at most 16 KiB in all).',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('requete_trop_lente', 'The request did not arrive in time.');
    default:
      return new ApiError('requete_invalide', 'The request is not valid HTTP/1.1.', {
        reason: (error.code ?? 'malformed').toLowerCase(),
      });
  }
}

function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A connection reset or closed by the client has nobody left to answer.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const apiError = clientErrorFor(error);
  const body = JSON.stringify(apiError.toJSON());
  socket.end(
    [
      `HTTP/1.1 ${apiError.status} ${STATUS_TEXT[apiError.code] ?? 'Bad Request'}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${randomUUID()}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
  // The parser gave up on this connection: read and drop the rest until the client closes.
  socket.on('data', () => {});
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

const STATUS_TEXT: Partial<Record<ErrorCode, string>> = {
  en_tetes_trop_volumineux: 'Request Header Fields Too Large',
  requete_trop_lente: 'Request Timeout',
};

/**
 * For a response about to be written: when the request body has not fully arrived (a 413
 * refused on Content-Length, an answer that did not need the body), say `Connection: close`, so
 * a pooled client does not send its next request on this connection, and linger so the client
 * can finish sending and read the answer. Handlers that write to the socket themselves (the
 * landing proxy) call it before `writeHead`.
 */
export function closeIfAnsweredEarly(outgoing: ServerResponse): void {
  if (outgoing.req.complete) return;
  outgoing.setHeader('connection', 'close');
  lingerBeforeClose(outgoing.req);
}

/**
 * Node ends a `Connection: close` response with `destroySoon()`, which destroys the socket
 * once our bytes are written, while the client may still be sending its body. Instead, half-close
 * (our FIN tells the client we are done), discard the rest of the body, and let the socket close
 * when the client closes its side, or after LINGER_MS.
 */
function lingerBeforeClose(request: IncomingMessage): void {
  const socket = request.socket as (Socket & { [LINGERING]?: boolean }) | null;
  if (!socket || socket.destroyed || socket[LINGERING]) return;
  socket[LINGERING] = true;
  socket.destroySoon = function halfCloseAndLinger() {
    if (!socket.writableEnded) socket.end();
    // A handler that streamed the body elsewhere (the proxy) stopped reading it: drop the rest.
    request.unpipe();
    request.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
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
