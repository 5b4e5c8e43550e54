import { ApiError } from './errors.js';
import type { webhooks } from './gen/webhooks.gen.js';

/** Every event the portal delivers (the contract's `webhooks:` section), discriminated by `type`. */
export type WebhookEvent = {
  [K in keyof webhooks]: webhooks[K] extends {
    post: { requestBody: { content: { 'application/json': infer E } } };
  }
    ? E
    : never;
}[keyof webhooks];

/** Why a delivery was refused, in `error.params.reason`. */
export type SignatureFailure =
  | 'missing_header'
  | 'malformed_timestamp'
  | 'malformed_signature'
  | 'timestamp_outside_tolerance'
  | 'no_matching_signature'
  | 'invalid_payload';

export interface VerifyWebhookInput {
  /** The raw request body, exactly as received (not re-serialized JSON). */
  payload: string;
  /** The request's headers: a `Headers` or Node's `req.headers`. */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The subscription's secret, `whsec_…`, as shown at creation or rotation. */
  secret: string;
  /** How far the timestamp may be from now (default 300 s). */
  toleranceSeconds?: number;
  now?: Date;
}

export type VerifyResult =
  | { event: WebhookEvent; error?: undefined }
  | { event?: undefined; error: ApiError };

const encoder = new TextEncoder();

/**
 * Checks `X-Service-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">` (either
 * signature during a secret rotation) and the timestamp's freshness, with Web Crypto only:
 * Node 20+, Deno, Bun and edge runtimes.
 */
export async function verifyWebhookSignature(input: VerifyWebhookInput): Promise<VerifyResult> {
  const timestamp = header(input.headers, 'x-service-timestamp');
  const signature = header(input.headers, 'x-service-signature');
  if (!timestamp || !signature) return refuse('missing_header');
  if (!/^\d{1,12}$/.test(timestamp)) return refuse('malformed_timestamp');
  const now = (input.now ?? new Date()).getTime() / 1000;
  if (Math.abs(now - Number(timestamp)) > (input.toleranceSeconds ?? 300)) {
    return refuse('timestamp_outside_tolerance');
  }
  const candidates = signature
    .split(',')
    .map((part) => /^\s*sha256=([0-9a-f]{64})\s*$/i.exec(part)?.[1]?.toLowerCase())
    .filter((hex) => hex !== undefined);
  if (candidates.length === 0) return refuse('malformed_signature');

  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(input.secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, encoder.encode(`${timestamp}.${input.payload}`)),
  );
  const expected = Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
  // Every candidate is compared in full: the time taken says nothing about which bytes matched.
  let matched = false;
  for (const candidate of candidates) matched = equalInConstantTime(expected, candidate) || matched;
  if (!matched) return refuse('no_matching_signature');
  try {
    return { event: JSON.parse(input.payload) as WebhookEvent };
  } catch {
    return refuse('invalid_payload');
  }
}

function header(headers: VerifyWebhookInput['headers'], name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(',') : value;
}

function equalInConstantTime(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function refuse(reason: SignatureFailure): VerifyResult {
  return { error: new ApiError('signature_invalide', `Webhook refused: ${reason}.`, { reason }) };
}
