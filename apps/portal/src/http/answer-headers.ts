import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';

/** Responses made by `answer`, which carry the request's headers already. */
const answered = new WeakSet<Response>();

/**
 * The request id and the headers every answer to the request carries, in a plain object rather
 * than through `c.header()`: that builds a WHATWG `Headers` per request, which @hono/node-server
 * then copies back into an object for `writeHead` (~10 µs a list request, issue 30). The id is
 * hono's `requestId()`'s: the caller's `X-Request-Id` when it is 1–255 characters of
 * `[A-Za-z0-9_=-]`, else a UUID. A response made by `answer` takes the headers as they are; any
 * other (errors, other routes) gets, once it is made, those it does not set itself.
 */
export function answerHeaders(): MiddlewareHandler<AppEnv> {
  return async function identifyRequest(c, next) {
    const id = requestIdFrom(c.req.header('x-request-id'));
    c.set('requestId', id);
    const headers: Record<string, string> = { 'X-Request-Id': id };
    c.set('answerHeaders', headers);
    await next();
    if (answered.has(c.res)) return;
    const made = c.res.headers;
    for (const name in headers) if (!made.has(name)) made.set(name, headers[name]!);
  };
}

/** The request's id: the caller's `X-Request-Id` when hono's `requestId()` would keep it, else a UUID. */
export function requestIdFrom(header: string | undefined): string {
  return header && header.length <= 255 && !/[^\w\-=]/.test(header) ? header : crypto.randomUUID();
}

/** A header every answer to this request carries, errors included (`c.header()` without the app's middleware). */
export function setAnswerHeader(c: Context<AppEnv>, name: string, value: string): void {
  const headers = c.get('answerHeaders');
  if (headers) headers[name] = value;
  else c.header(name, value);
}

/**
 * The response, with the request's headers and `own` (which win), its headers a plain object
 * that @hono/node-server writes as it is.
 */
export function answer(
  c: Context<AppEnv>,
  body: string | null,
  status: number,
  own: Record<string, string>,
): Response {
  const headers = c.get('answerHeaders');
  const response = new Response(body, { status, headers: headers ? { ...headers, ...own } : own });
  if (headers) answered.add(response);
  return response;
}
