import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { trace } from '@opentelemetry/api';
import { type DestinationStream, type Logger as PinoLogger, pino, stdTimeFunctions } from 'pino';
import { REDACTED_PATHS } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
/** `json`: one object per line (production, collectors); `pretty`: coloured lines (`pnpm dev`). */
export type LogFormat = 'json' | 'pretty';

/**
 * What the apps log through. Kept to `(message, fields)` rather than pino's `(fields, message)`:
 * called the other way round, pino would take the fields for format arguments and drop them
 * without a word, so the order is fixed here once.
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  /** Default `json`. `pretty` needs pino-pretty (a development dependency): without it, json. */
  format?: LogFormat;
  /** Where JSON lines go (tests capture them); default stdout. */
  destination?: DestinationStream;
}

/**
 * The one logger of every app (pino): the same fields everywhere (`time`, `level`, `app`, `pid`,
 * `hostname`, `message`, then the caller's), `trace_id`/`span_id` when a trace is active, and
 * secrets replaced by `[redacted]` wherever they sit at a known path (see redact.ts), however a
 * caller came to pass them. Callers still pass ids and codes, never secrets: redaction is the
 * second line, not the first.
 */
export function createLogger(level: LogLevel, app: string, options: LoggerOptions = {}): Logger {
  const pretty = options.format === 'pretty' ? prettyTransport() : undefined;
  // Synchronous writes, pino's default: one write per request done asynchronously costs a
  // thread-pool hand-off (~35 µs CPU measured, `pnpm bench observability`), a write() ~2 µs.
  const destination = options.destination ?? pretty ?? pino.destination({ dest: 1, sync: true });
  const log = pino(
    {
      level,
      base: { app, pid: process.pid, hostname: hostname() },
      messageKey: 'message',
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
      mixin: traceFields,
      mixinMergeStrategy: mergeTraceFields,
    },
    destination,
  );
  return {
    debug: at(log, 'debug'),
    info: at(log, 'info'),
    warn: at(log, 'warn'),
    error: at(log, 'error'),
  };
}

/** `json` unless said otherwise; `pretty` by default in development only. */
export function defaultLogFormat(nodeEnv: string, chosen?: LogFormat): LogFormat {
  return chosen ?? (nodeEnv === 'development' ? 'pretty' : 'json');
}

function at(log: PinoLogger, level: 'debug' | 'info' | 'warn' | 'error') {
  return (message: string, fields?: Record<string, unknown>) => {
    if (fields) log[level](fields, message);
    else log[level](message);
  };
}

/** Shared by every line without a trace: never written to (see mergeTraceFields). */
const NO_TRACE = Object.freeze({});

/** Ties a line to its trace (when tracing is on and a span is active): one search finds both. */
function traceFields(): object {
  const span = trace.getActiveSpan();
  if (!span) return NO_TRACE;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * pino's default merges the caller's fields into the mixin's object, which would write them into
 * the shared NO_TRACE (and every later line would carry them): only a fresh object is merged into.
 */
function mergeTraceFields(fields: object, trace: object): object {
  return trace === NO_TRACE ? fields : Object.assign(trace, fields);
}

/**
 * pino-pretty in a worker thread (pino's transport), resolved from here: installed for
 * development only, so an image started without NODE_ENV=production still logs (JSON).
 */
function prettyTransport(): DestinationStream | undefined {
  let target: string;
  try {
    target = createRequire(import.meta.url).resolve('pino-pretty');
  } catch {
    return undefined;
  }
  return pino.transport({
    target,
    options: {
      messageKey: 'message',
      // The app is turbo's line prefix already (`@erp/portal:dev:`); pid and host are noise here.
      ignore: 'pid,hostname,app',
      translateTime: 'SYS:HH:MM:ss.l',
      singleLine: true,
      colorize: !process.env.NO_COLOR,
    },
  });
}
