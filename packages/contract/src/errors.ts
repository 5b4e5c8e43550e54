import { z } from '@hono/zod-openapi';

/** Every error code of the product (SPEC §5), its HTTP status and what it means. */
export const errorCatalogue = {
  requete_invalide: { status: 400, description: 'Body, path, query or header fails validation.' },
  filtre_invalide: {
    status: 400,
    description: 'Unknown field, operator or ill-typed filter value.',
  },
  tenant_requis: { status: 400, description: 'No tenant header (X-Tenant-ID or X-Tenant).' },
  signature_invalide: {
    status: 400,
    description: 'Inbound webhook signature or timestamp rejected.',
  },
  non_authentifie: { status: 401, description: 'No credentials.' },
  jeton_invalide: { status: 401, description: 'Bad or expired access token or refresh token.' },
  identifiants_invalides: { status: 401, description: 'Login failed.' },
  cle_api_invalide: { status: 401, description: 'Unknown, revoked or expired API key.' },
  origine_interdite: { status: 403, description: 'API key used from a browser (Origin header).' },
  tenant_invalide: {
    status: 403,
    description: "Tenant is not the key's, or not one of the user's.",
  },
  acces_refuse: { status: 403, description: 'A right is missing (params.required).' },
  module_non_souscrit: { status: 403, description: 'The tenant did not buy the module.' },
  sso_requis: {
    status: 403,
    description: 'The tenant logs in through SSO (params.authorize_url).',
  },
  introuvable: { status: 404, description: 'No such route or record (in this tenant).' },
  transition_invalide: { status: 409, description: 'Status transition not allowed.' },
  conflit: { status: 409, description: 'Uniqueness or concurrency conflict.' },
  requete_trop_lente: {
    status: 408,
    description: 'The request (headers or body) did not arrive in time; the connection is closed.',
  },
  charge_trop_volumineuse: { status: 413, description: 'Body over the size limit.' },
  en_tetes_trop_volumineux: {
    status: 431,
    description: 'Request headers over 16 KiB in all; the connection is closed.',
  },
  limite_depassee: { status: 429, description: 'Rate limit exceeded (see Retry-After).' },
  erreur_interne: { status: 500, description: 'Unexpected error (params.request_id).' },
  portail_indisponible: {
    status: 502,
    description: 'Landing proxy: portal unreachable (504: too slow).',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof errorCatalogue;
export const errorCodes = Object.keys(errorCatalogue) as [ErrorCode, ...ErrorCode[]];
export type ErrorParams = Record<string, unknown>;

/** The body of every error response. */
export interface ErrorBody {
  code: ErrorCode;
  params: ErrorParams;
  message: string;
}

/** The one error type: thrown anywhere, turned into `{code, params, message}` in one place. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly params: ErrorParams;
  readonly status: number;
  /** Extra response headers (Retry-After, WWW-Authenticate, ...). */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    params: ErrorParams = {},
    options: { status?: number; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.params = params;
    this.status = options.status ?? errorCatalogue[code].status;
    this.headers = options.headers ?? {};
  }

  toJSON(): ErrorBody {
    return { code: this.code, params: this.params, message: this.message };
  }
}

export const ErrorSchema = z
  .object({
    code: z.enum(errorCodes).openapi({ example: 'requete_invalide' }),
    params: z.record(z.string(), z.unknown()).openapi({ example: {} }),
    message: z.string().openapi({ example: 'The request body is invalid.' }),
  })
  .openapi('Error', { description: 'Every error of every app has this shape (SPEC §5).' });

/** OpenAPI responses for the given error codes, grouped by status. */
export function errorResponses(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'erreur_interne' as const]) {
    const status = errorCatalogue[code].status;
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      {
        description: list.map((c) => `\`${c}\`: ${errorCatalogue[c].description}`).join(' '),
        content: { 'application/json': { schema: ErrorSchema } },
      },
    ]),
  );
}
