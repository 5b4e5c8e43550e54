import { createRequire } from 'node:module';
import { context, propagation, trace } from '@opentelemetry/api';

/** A running tracer: `shutdown` sends the spans still buffered (main.ts calls it on SIGTERM). */
export interface Tracing {
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** `service.name` of every span: portal, landing, worker. */
  service: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT, parsed by the app's env.ts; unset: no tracing at all. */
  endpoint: string | undefined;
  /** The app's own `require` (`createRequire(import.meta.url)` in main.ts), see below. */
  require: NodeJS.Require;
}

/** Requests never traced: probes and scrapes, every few seconds, say nothing about the product. */
const UNTRACED_PATHS = new Set(['/health', '/metrics', '/api/health', '/api/v1/health']);

/**
 * OpenTelemetry traces (SPEC §15), only when an OTLP endpoint is configured: without one,
 * nothing of the SDK is even loaded, and the API the code calls (`@opentelemetry/api`) stays a
 * no-op. With one: spans of incoming HTTP requests (named by route template, see
 * `observeRequests`), of PostgreSQL statements within them (their text, never their values),
 * and of outgoing requests through undici and fetch, batched to `<endpoint>/v1/traces` over
 * OTLP/HTTP protobuf. The exporter reads the standard OTEL_EXPORTER_OTLP_* variables (headers,
 * timeout, a traces-only endpoint) itself; the sampler's, the batch processor's and the span
 * limits' are read by `tracerEnvironment`.
 *
 * Called first thing in main.ts, before any pool or server exists. The instrumentations patch
 * prototypes (`http.Server`, `pg.Client`, `pg-pool`) when the module is `require`d through
 * their hook, but an ESM import of a builtin, or of a package main.ts had already imported,
 * never passes there: so each module is required once more here, from the app's own
 * resolution, which hands it to the hook; every instance, made before or after, shares the
 * patched prototype.
 */
export async function startTracing(options: TracingOptions): Promise<Tracing | undefined> {
  if (!options.endpoint) return undefined;
  const [
    { AsyncLocalStorageContextManager },
    { W3CTraceContextPropagator },
    { TracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { ATTR_SERVICE_NAME },
    { registerInstrumentations },
    { HttpInstrumentation },
    { PgInstrumentation },
    { UndiciInstrumentation },
    { tracerEnvironment },
  ] = await Promise.all([
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-undici'),
    import('./tracer-environment'),
  ]);
  const { sampler, spanLimits, batch } = tracerEnvironment();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.service }),
    sampler,
    spanLimits,
    spanProcessors: [new BatchSpanProcessor({ ...batch, exporter: new OTLPTraceExporter() })],
  });
  // What sdk-trace-node's `register()` did before the 3.x SDK left it out: the global tracer,
  // the AsyncLocalStorage context (a span active across awaits) and W3C trace-context
  // propagation (`traceparent` in and out). Not W3C baggage, which that default also carried:
  // nothing here reads it, and a caller's `baggage` header would be forwarded to every host
  // the request calls (a payment provider, an identity provider).
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) =>
          UNTRACED_PATHS.has((request.url ?? '').split('?')[0] ?? ''),
      }),
      // Only statements inside a traced operation: the worker's heartbeat and queue polling
      // would otherwise make a trace of their own every few seconds.
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation({
        // A subscriber's URL may carry its own secret (a token in the query, or the path
        // itself, as chat webhooks do): outgoing spans keep the origin only.
        requestHook: (span, request) => {
          span.setAttribute('url.full', request.origin);
          span.setAttribute('url.path', '[redacted]');
          span.setAttribute('url.query', '[redacted]');
        },
      }),
    ],
  });
  handOverLoadedModules(options.require);
  return { shutdown: () => provider.shutdown() };
}

function handOverLoadedModules(appRequire: NodeJS.Require): void {
  appRequire('node:http');
  let pgPath: string;
  try {
    pgPath = appRequire.resolve('pg');
  } catch {
    return; // an app without PostgreSQL (none today)
  }
  appRequire(pgPath);
  // pg-pool is pg's own dependency: resolved from pg, as pg requires it.
  createRequire(pgPath)('pg-pool');
}
