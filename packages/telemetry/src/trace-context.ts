import {
  type Attributes,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/**
 * The active span as a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), to be stored with
 * what it causes (an event of the outbox), so the work done later, elsewhere, can link back to
 * it. Null when tracing is off or nothing is traced.
 */
export function activeTraceparent(): string | null {
  const span = trace.getActiveSpan();
  if (!span) return null;
  const context = span.spanContext();
  if (!isSpanContextValid(context)) return null;
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

/**
 * Runs `work` in a span of its own trace, linked to the span a stored `traceparent` names (the
 * request that caused the work), as OpenTelemetry's messaging conventions do for a consumer:
 * a link, not a parent, so a request's trace stays the request, however many deliveries and
 * retries, hours later, follow from it. Without tracing it only runs `work`.
 */
export function inLinkedSpan<T>(
  name: string,
  options: { traceparent: string | null; attributes?: Attributes },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const cause = options.traceparent
    ? trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent: options.traceparent }))
    : undefined;
  return trace.getTracer('@erp/telemetry').startActiveSpan(
    name,
    {
      kind: SpanKind.CONSUMER,
      root: true,
      links: cause && isSpanContextValid(cause) ? [{ context: cause }] : [],
      attributes: options.attributes,
    },
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
