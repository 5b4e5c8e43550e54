import { createRequire } from 'node:module';

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
 * timeout, a traces-only endpoint) itself.
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
    { NodeTracerProvider },
    { BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { ATTR_SERVICE_NAME },
    { registerInstrumentations },
    { HttpInstrumentation },
    { PgInstrumentation },
    { UndiciInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-undici'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.service }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The global tracer, AsyncLocalStorage context and W3C trace-context propagation.
  provider.register();
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
