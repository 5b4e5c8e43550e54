import type { LookupAddress, LookupOptions } from 'node:dns';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { isPublicAddress } from '@erp/webhooks';

/** The whole exchange with the provider (connect, headers, body) must end within this. */
export const PROVIDER_TIMEOUT_MS = 10_000;
/** Discovery documents, key sets and token responses are small; anything bigger is refused. */
const MAX_RESPONSE_BYTES = 512 * 1024;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** Whether an address is loopback (127/8, ::1, or 127/8 mapped into IPv6). */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A connection the issuer policy refused: the provider is, or resolves to, a non-public address. */
export class RefusedProviderAddressError extends Error {
  constructor(readonly host: string) {
    super(`${host} is, or resolves to, a private, loopback or link-local address`);
    this.name = 'RefusedProviderAddressError';
  }
}

/** The provider could not be reached, or answered too slowly or too much. */
export class ProviderUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderUnreachableError';
  }
}

export interface ProviderAddressPolicy {
  /** `SSO_ALLOW_INSECURE_ISSUERS`: loopback addresses are allowed too (development and tests). */
  allowLoopback: boolean;
  /** Name resolution (tests may inject their own). */
  lookup?: typeof dns.lookup;
}

/** Whether the policy lets the portal connect to this address. */
export function addressAllowed(address: string, policy: ProviderAddressPolicy): boolean {
  return isPublicAddress(address) || (policy.allowLoopback && isLoopbackAddress(address));
}

/**
 * The `fetch` openid-client uses to talk to providers. A tenant admin chooses the issuer, so
 * every request the portal makes on its behalf is held to the address policy at connection
 * time: names are checked as they resolve and the socket connects to the checked address (no
 * second lookup a rebinding DNS could answer differently), literal addresses before
 * connecting. No redirect is followed (openid-client asks for `manual`), responses are capped
 * and the whole exchange is timed out.
 */
export function createProviderFetch(policy: ProviderAddressPolicy) {
  const lookup = policy.lookup ?? dns.lookup;
  const guardedLookup =
    (allowed: (address: string) => boolean) =>
    (
      hostname: string,
      options: LookupOptions,
      callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      lookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, []);
        const list = addresses as LookupAddress[];
        if (list.length === 0) return callback(new Error(`${hostname} did not resolve`), []);
        if (list.some((a) => !allowed(a.address)))
          return callback(new RefusedProviderAddressError(hostname), []);
        if (options.all) return callback(null, list);
        callback(null, list[0]!.address, list[0]!.family);
      });
    };

  return function providerFetch(
    url: string,
    init: { method: string; headers: Record<string, string>; body?: unknown; signal?: AbortSignal },
  ): Promise<Response> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // Plain http is for a provider on this machine only (development and tests).
    const allowed =
      target.protocol === 'https:'
        ? (address: string) => addressAllowed(address, policy)
        : (address: string) => policy.allowLoopback && isLoopbackAddress(address);
    if (isIP(host) && !allowed(host)) return Promise.reject(new RefusedProviderAddressError(host));
    const transport = target.protocol === 'https:' ? https : http;
    const body = encodeBody(init.body);
    const headers = body
      ? { ...init.headers, 'content-length': String(body.length) }
      : init.headers;
    const signal = init.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(PROVIDER_TIMEOUT_MS)])
      : AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
    return new Promise<Response>((resolve, reject) => {
      const request = transport.request(
        target,
        { method: init.method, headers, signal, lookup: guardedLookup(allowed) as never },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) {
              request.destroy(
                new ProviderUnreachableError(`${target.origin} answered over 512 KiB`),
              );
              return;
            }
            chunks.push(chunk);
          });
          response.on('error', (error) => reject(unreachable(target, error)));
          response.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(response.headers)) {
              for (const v of Array.isArray(value) ? value : [value ?? '']) headers.append(name, v);
            }
            const status = response.statusCode ?? 502;
            const bodyless = status === 204 || status === 304 || init.method === 'HEAD';
            resolve(
              new Response(bodyless ? null : Buffer.concat(chunks), {
                status,
                statusText: response.statusMessage ?? '',
                headers,
              }),
            );
          });
        },
      );
      request.on('error', (error) => reject(unreachable(target, error)));
      request.end(body);
    });
  };
}

/** openid-client sends forms as URLSearchParams, other bodies as strings or bytes. */
function encodeBody(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (body instanceof URLSearchParams || typeof body === 'string') return Buffer.from(String(body));
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new TypeError('unsupported request body');
}

function unreachable(target: URL, error: Error): Error {
  if (error instanceof RefusedProviderAddressError || error instanceof ProviderUnreachableError)
    return error;
  if (error.cause instanceof RefusedProviderAddressError) return error.cause;
  const reason =
    error.name === 'AbortError' || error.name === 'TimeoutError'
      ? `no answer within ${PROVIDER_TIMEOUT_MS / 1000} s`
      : ((error as NodeJS.ErrnoException).code ?? error.message);
  return new ProviderUnreachableError(`${target.origin} could not be reached: ${reason}`, {
    cause: error,
  });
}
