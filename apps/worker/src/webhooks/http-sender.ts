import type { LookupAddress, LookupOptions } from 'node:dns';
import dns from 'node:dns';
import { EventEmitter } from 'node:events';
import { isIP, type Socket } from 'node:net';
import { isPrivateAddress } from '@erp/webhooks';
import { Agent, buildConnector, request } from 'undici';

/** What one POST to a subscriber came to. */
export interface SendResult {
  /** The response status, or null when no response came (refused, timeout, network error). */
  status: number | null;
  durationMs: number;
  /** The first bytes of the response body, as text. */
  excerpt: string | null;
  error: string | null;
  /** The response's Retry-After header, as sent. */
  retryAfter: string | null;
}

export interface SenderOptions {
  /** Development only: allow loopback, private and link-local addresses. */
  allowPrivate: boolean;
  timeoutMs: number;
  /** Name resolution (tests inject a fake DNS). */
  lookup?: typeof dns.lookup;
  /** Which addresses are refused (tests carve out their receivers). */
  isRefused?: (address: string) => boolean;
  /** Bytes of response body read at most; the rest is dropped. */
  maxResponseBytes?: number;
  connectionsPerOrigin?: number;
}

export interface Sender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  close(): Promise<void>;
}

const EXCERPT_CHARS = 1024;

/** Refusals of the address policy; the message is what the delivery log shows. */
class RefusedAddressError extends Error {
  constructor(address: string, when: 'resolved' | 'literal' | 'connected') {
    const stage = when === 'connected' ? 'after connecting, before sending' : 'not connected to';
    super(`refused: ${address} is a private, loopback or link-local address (${stage})`);
    this.name = 'RefusedAddressError';
  }
}

/**
 * POSTs deliveries with undici: keep-alive pools per origin, no redirects followed, a whole-
 * attempt timeout, a cap on the bytes read. Outside development the address policy applies to
 * the address actually connected to: names are checked as they resolve (the socket connects
 * to the checked address, no second lookup), literal addresses before connecting, and the
 * socket's peer once more before a byte of the request is written.
 */
export function createSender(options: SenderOptions): Sender {
  const refused = options.isRefused ?? ((address: string) => isPrivateAddress(address));
  const lookup = options.lookup ?? dns.lookup;
  const maxBytes = options.maxResponseBytes ?? 64 * 1024;
  const guardedLookup = (
    hostname: string,
    lookupOptions: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => refused(a.address));
      if (bad)
        return callback(new RefusedAddressError(`${hostname} (${bad.address})`, 'resolved'), []);
      if (lookupOptions.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} did not resolve`), []);
      callback(null, first.address, first.family);
    });
  };
  const base = buildConnector({
    timeout: options.timeoutMs,
    ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }),
  });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const host = connectOptions.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(host) && refused(host)) {
      callback(new RefusedAddressError(host, 'literal'), null);
      return;
    }
    base(connectOptions, (error, socket) => {
      if (error || !socket) return callback(error ?? new Error('no socket'), null);
      const peer = (socket as Socket).remoteAddress;
      if (!options.allowPrivate && (!peer || refused(peer))) {
        socket.destroy();
        return callback(new RefusedAddressError(peer ?? 'unknown', 'connected'), null);
      }
      callback(null, socket);
    });
  };
  const agent = new Agent({
    connect,
    connections: options.connectionsPerOrigin ?? 64,
    keepAliveTimeout: 30_000,
  });

  async function send(url: string, headers: Record<string, string>, body: string) {
    const started = performance.now();
    const signal = deadline(options.timeoutMs);
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: agent,
        signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      const excerpt = await readCapped(response.body, maxBytes);
      const retryAfter = response.headers['retry-after'];
      return {
        status: response.statusCode,
        durationMs: elapsed(),
        excerpt,
        error: null,
        retryAfter: (Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) ?? null,
      };
    } catch (error) {
      return {
        status: null,
        durationMs: elapsed(),
        excerpt: null,
        error: describeFailure(error, signal, options.timeoutMs),
        retryAfter: null,
      };
    } finally {
      signal.clear();
    }
  }

  return { send, close: () => agent.close() };
}

/**
 * A whole-attempt timeout as a signal undici accepts (an EventEmitter that emits `abort`): one
 * timer, cleared when the attempt ends. `AbortSignal.timeout` did the same at ~10× the CPU (its
 * weak references and finalization registry), a visible share of a delivery's.
 */
function deadline(ms: number) {
  const signal = Object.assign(new EventEmitter(), { aborted: false, clear: () => {} });
  const timer = setTimeout(() => {
    signal.aborted = true;
    signal.emit('abort');
  }, ms);
  signal.clear = () => clearTimeout(timer);
  return signal;
}

/**
 * Reads at most `maxBytes` of a body (then drops the connection's rest) and keeps an excerpt.
 * Listened to rather than iterated: an async iterator per response was a visible share of an
 * attempt's CPU, for a body that is a few bytes almost always.
 */
function readCapped(
  body: NodeJS.ReadableStream & { destroy(): void },
  maxBytes: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      body.removeListener('data', onData);
      body.removeListener('end', done);
      body.removeListener('error', reject);
      const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))
        .subarray(0, Math.min(size, EXCERPT_CHARS * 4))
        .toString('utf8');
      resolve(text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) : text);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) {
        body.destroy();
        done();
      }
    };
    body.on('data', onData);
    body.once('end', done);
    body.once('error', reject);
    // Destroying the body (above the cap, or the attempt's timeout) makes undici emit an
    // AbortError after `done` stopped listening: without a listener it would be uncaught and
    // end the process.
    body.on('error', ignoreError);
  });
}

function ignoreError(): void {}

function describeFailure(error: unknown, signal: { aborted: boolean }, timeoutMs: number): string {
  if (signal.aborted) return `timeout: no complete response within ${timeoutMs} ms`;
  let current: unknown = error;
  // undici wraps the connector's error; report the innermost reason.
  while (current instanceof Error) {
    if (current instanceof RefusedAddressError) return current.message;
    if (!current.cause) break;
    current = current.cause;
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  return (code ? `${code}: ${message}` : message).slice(0, 500);
}
