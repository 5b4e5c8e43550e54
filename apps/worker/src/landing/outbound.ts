import net from 'node:net';
import { Agent, request } from 'undici';

/** What a server-to-server call came to (a response arrived, whatever its status). */
export interface OutboundResponse {
  status: number;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** The start of the body as text, the shared key blanked out: for logs and error records. */
  excerpt: string;
}

/** No response: refused, reset, DNS failure or timeout. The message names no secret. */
export class OutboundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundCall {
  url: string;
  apiKey: string;
  body: unknown;
  headers?: Record<string, string>;
}

export interface Outbound {
  postJson(call: OutboundCall): Promise<OutboundResponse>;
  /** False only when the URL's host refuses connections (nothing listens on that port yet). */
  accepts(url: string): Promise<boolean>;
  close(): Promise<void>;
}

const MAX_RESPONSE_BYTES = 256 * 1024;
const EXCERPT_CHARS = 300;

/**
 * JSON POSTs to our own configured endpoints (landing's sync, the portal's internal API) with
 * `X-API-Key`. Unlike the webhook sender there is no address policy (operators name these
 * URLs), but the same hygiene: one whole-call timeout, redirects not followed (a 3xx is an
 * answer, never a hop that would carry the key elsewhere), a cap on the bytes read.
 */
export function createOutbound(options: { timeoutMs: number }): Outbound {
  const agent = new Agent({ connect: { timeout: options.timeoutMs }, keepAliveTimeout: 30_000 });

  async function postJson(call: OutboundCall): Promise<OutboundResponse> {
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const response = await request(call.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'user-agent': 'erp-worker',
          ...call.headers,
          'x-api-key': call.apiKey,
        },
        body: JSON.stringify(call.body),
        dispatcher: agent,
        signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      const text = await readCapped(response.body);
      return {
        status: response.statusCode,
        json: parseJson(text),
        excerpt: redact(text, call.apiKey).slice(0, EXCERPT_CHARS),
      };
    } catch (error) {
      if (signal.aborted)
        throw new OutboundError(`timeout: no complete response within ${options.timeoutMs} ms`);
      throw new OutboundError(redact(describe(error), call.apiKey).slice(0, EXCERPT_CHARS));
    }
  }

  /** A bare TCP connect, nothing sent; any answer but a refusal is left to the call itself. */
  function accepts(url: string): Promise<boolean> {
    const { hostname, port, protocol } = new URL(url);
    return new Promise((resolve) => {
      const socket = net.connect({
        host: hostname.replace(/^\[|\]$/g, ''),
        port: Number(port) || (protocol === 'https:' ? 443 : 80),
        timeout: options.timeoutMs,
      });
      const done = (result: boolean) => {
        socket.destroy();
        resolve(result);
      };
      socket.once('connect', () => done(true));
      socket.once('timeout', () => done(true));
      socket.once('error', (error: NodeJS.ErrnoException) => done(error.code !== 'ECONNREFUSED'));
    });
  }

  return { postJson, accepts, close: () => agent.close() };
}

/** Blanks a secret out of a text that may have come back from the other side. */
export function redact(text: string, secret: string): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_RESPONSE_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** undici wraps the socket's error: name the innermost code and message. */
function describe(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const inner = current instanceof Error ? current : new Error(String(error));
  const code = (inner as { code?: string }).code;
  return code ? `${code}: ${inner.message}` : inner.message;
}
