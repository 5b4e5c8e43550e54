import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '@erp/contract';

/** What a rejected signature says about itself (`params.reason`), and nothing more. */
export type SignatureFailure =
  | 'not_configured'
  | 'missing_header'
  | 'malformed_header'
  | 'no_matching_signature'
  | 'timestamp_out_of_tolerance';

/** Stripe's default, used for Paddle too: a signed request is accepted 5 minutes either way. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

const SHA256_HEX = /^[0-9a-f]{64}$/i;
const UNIX_SECONDS = /^\d{1,12}$/;

/** Whether a value is a SHA-256 digest in hex (64 digits, any case). */
export function isSha256Hex(value: string): boolean {
  return SHA256_HEX.test(value);
}

/** The one error every verification failure becomes. */
export function signatureInvalid(reason: SignatureFailure): ApiError {
  return new ApiError('signature_invalide', 'The webhook signature could not be verified.', {
    reason,
  });
}

/** The signing secret, or `not_configured` when landing was given none. */
export function requireSecret(secret: string | undefined): string {
  if (!secret) throw signatureInvalid('not_configured');
  return secret;
}

/** The header's value, or `missing_header`. */
export function requireHeader(headers: Headers, name: string): string {
  const value = headers.get(name);
  if (value === null || value.trim() === '') throw signatureInvalid('missing_header');
  return value;
}

/**
 * Splits `k=v<sep>k=v…` (Stripe: `,`, Paddle: `;`) into values per key; unknown keys are kept
 * and ignored by the caller, a part without `=` makes the header malformed.
 */
export function parseSignatureHeader(value: string, separator: string): Map<string, string[]> {
  const parts = new Map<string, string[]>();
  for (const part of value.split(separator)) {
    const at = part.indexOf('=');
    if (at <= 0) throw signatureInvalid('malformed_header');
    const key = part.slice(0, at).trim();
    parts.set(key, [...(parts.get(key) ?? []), part.slice(at + 1).trim()]);
  }
  return parts;
}

/** The single unix timestamp of a header (`t` or `ts`). */
export function headerTimestamp(parts: Map<string, string[]>, key: string): number {
  const values = parts.get(key);
  if (values?.length !== 1 || !UNIX_SECONDS.test(values[0] as string))
    throw signatureInvalid('malformed_header');
  return Number(values[0]);
}

/** The header's hex signatures under `key` (`v1`, `h1`): at least one, each 64 hex digits. */
export function headerSignatures(parts: Map<string, string[]>, key: string): string[] {
  const values = parts.get(key) ?? [];
  if (values.length === 0 || !values.every((v) => SHA256_HEX.test(v)))
    throw signatureInvalid('malformed_header');
  return values;
}

/** Whether one of the candidates (hex) is the HMAC-SHA256 of `content`; constant time each. */
export function matchesHmac(secret: string, content: string, candidates: string[]): boolean {
  const expected = createHmac('sha256', secret).update(content, 'utf8').digest();
  let matched = false;
  for (const candidate of candidates) {
    if (!SHA256_HEX.test(candidate)) continue;
    // Every candidate is compared (no early exit): the time does not tell which one matched.
    if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
  }
  return matched;
}

/** Rejects a timestamp more than the tolerance away from now, in the past or the future. */
export function assertFresh(timestamp: number, now: Date): void {
  if (Math.abs(now.getTime() / 1000 - timestamp) > TIMESTAMP_TOLERANCE_SECONDS)
    throw signatureInvalid('timestamp_out_of_tolerance');
}

/**
 * The timestamped schemes (Stripe, Paddle): the signature is checked first, then the age, so
 * `timestamp_out_of_tolerance` is only ever said of a genuine (replayed or skewed) request.
 */
export function verifyTimestamped(
  secret: string,
  timestamp: number,
  signedContent: string,
  candidates: string[],
  now: Date,
): void {
  if (!matchesHmac(secret, signedContent, candidates))
    throw signatureInvalid('no_matching_signature');
  assertFresh(timestamp, now);
}
