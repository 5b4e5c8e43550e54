import { type LandingDeps, shorten } from './deps';
import type { OutboundResponse } from './outbound';

/** What to do with the portal's answer: done, try again later, or give up for good. */
export type Verdict = 'ok' | 'retry' | 'permanent';

/**
 * 2xx done; 5xx, 401 (a key being rotated), 408 and 429 are passing troubles worth retrying;
 * other 4xx will answer the same forever. A 3xx (redirects are not followed) or 1xx means a
 * misconfigured `PORTAL_URL`: retried, so the job fails visibly until operators fix it.
 */
export function portalVerdict(status: number): Verdict {
  if (status >= 200 && status < 300) return 'ok';
  if (status >= 500 || status === 401 || status === 408 || status === 429) return 'retry';
  if (status >= 400) return 'permanent';
  return 'retry';
}

/** Thrown to have graphile-worker retry the job; the message is safe to log. */
export class RetryLater extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryLater';
  }
}

/** A `POST /api/v1/internal/*` with `X-API-Key: SAAS_INTERNAL_API_KEY`. */
export async function postToPortal(
  deps: LandingDeps,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<OutboundResponse> {
  const { PORTAL_URL, SAAS_INTERNAL_API_KEY } = deps.env;
  if (!PORTAL_URL || !SAAS_INTERNAL_API_KEY) {
    throw new RetryLater(
      'PORTAL_URL and SAAS_INTERNAL_API_KEY must both be set for the worker to forward to the portal',
    );
  }
  return deps.outbound.postJson({
    url: `${PORTAL_URL}${path}`,
    apiKey: SAAS_INTERNAL_API_KEY,
    body,
    headers,
  });
}

/** The error `code` of a `{code, params, message}` answer, when there is one. */
export function errorCode(response: OutboundResponse): string | undefined {
  const json = response.json as { code?: unknown } | undefined;
  return typeof json?.code === 'string' ? json.code : undefined;
}

/** A short description of a failed answer for logs and thrown errors. */
export function describeAnswer(path: string, response: OutboundResponse): string {
  const code = errorCode(response);
  return shorten(`${path} answered ${response.status}${code ? ` ${code}` : ''}`);
}
