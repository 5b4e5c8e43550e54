import type { components } from './gen/shared.gen.js';

/** Codes the client produces itself, when there is no error object from the portal to read. */
export type ClientErrorCode =
  /** The request never got an answer (DNS, refused or reset connection, TLS, body cut off). */
  | 'erreur_reseau'
  /** No answer within `timeoutMs`. */
  | 'delai_depasse'
  /** The caller's `signal` aborted the request, possibly during a backoff. */
  | 'requete_annulee'
  /** An answer that is not what the contract says (an HTML 502 from a proxy, broken JSON). */
  | 'reponse_invalide';

/** Every code an `ApiError` can carry: the contract's error catalogue and the client's own. */
export type ErrorCode = components['schemas']['Error']['code'] | ClientErrorCode;

/** The portal's `{code, params, message}` (SPEC §5), or one of the client's own codes. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ErrorCode;
  readonly params: Record<string, unknown>;
  /** The HTTP status when the portal answered. */
  readonly status: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    params: Record<string, unknown> = {},
    status?: number,
  ) {
    super(message);
    this.code = code;
    this.params = params;
    this.status = status;
  }

  toJSON() {
    return { code: this.code, params: this.params, message: this.message, status: this.status };
  }
}

/** Reads an error body; anything that is not the contract's error object is `reponse_invalide`. */
export function decodeError(status: number, text: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {}
  if (body && typeof body === 'object') {
    const { code, message, params } = body as Record<string, unknown>;
    if (typeof code === 'string' && typeof message === 'string') {
      const detail =
        params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
      return new ApiError(code as ErrorCode, message, detail, status);
    }
  }
  return new ApiError(
    'reponse_invalide',
    `HTTP ${status} without an error object.`,
    { body: text.slice(0, 200) },
    status,
  );
}
