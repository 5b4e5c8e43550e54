import type { Logger } from '@erp/logger';
import { trace } from '@opentelemetry/api';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { HttpMetrics } from './metrics';

/** The route label of a request no route took (bounded, whatever paths strangers try). */
export const UNMATCHED_ROUTE = 'unmatched';

type RequestIdEnv = { Variables: { requestId: string } };

/**
 * The access log and the request metrics, in one middleware placed right after `requestId()`:
 * one line per request (`request completed`: request id, method, route template, path without
 * its query, status, duration) and one observation of the latency histogram. Errors are
 * answered by `onError` inside `next()`, so their status is the one counted. The duration runs
 * to the response headers: a streamed body (an export) goes on after it.
 */
export function observeRequests<E extends RequestIdEnv>(options: {
  logger: Logger;
  metrics: HttpMetrics;
}): MiddlewareHandler<E> {
  const { logger, metrics } = options;
  return async function observeRequest(c, next) {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    const route = routeTemplate(c);
    const status = c.res.status;
    metrics.requestDuration.observe({ method: c.req.method, route, status }, seconds);
    // The server span (when tracing) is named like the histogram's series: `GET /api/v1/x/:id`.
    const span = trace.getActiveSpan();
    if (span) {
      span.updateName(`${c.req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    if (status === 429) metrics.rateLimitRefusals.inc({ route });
    logger.info('request completed', {
      request_id: c.get('requestId'),
      method: c.req.method,
      route,
      path: c.req.path,
      status,
      duration_ms: Math.round(seconds * 1e6) / 1e3,
    });
  };
}

/**
 * The template of the route that answered (`/api/v1/sales-orders/:id`). Hono lists the routes
 * a request matched in registration order, middleware included, and `routeIndex` is the last
 * one that ran: the handler that answered, or a middleware that refused (then the first route
 * of its own after it names the request). Nothing but catch-all middleware matched: unmatched.
 */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = c.req.routeIndex; i < routes.length; i++) {
    const route = routes[i]!;
    if (route.method !== 'ALL' || (route.path !== '*' && route.path !== '/*')) return route.path;
  }
  return UNMATCHED_ROUTE;
}
