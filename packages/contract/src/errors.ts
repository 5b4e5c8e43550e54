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
  lien_invalide: {
    status: 400,
    description:
      'A password reset or invitation link that cannot be used (params.reason: unknown, expired or used).',
  },
  non_authentifie: { status: 401, description: 'No credentials.' },
  jeton_invalide: { status: 401, description: 'Bad or expired access token or refresh token.' },
  identifiants_invalides: { status: 401, description: 'Login failed.' },
  cle_api_invalide: { status: 401, description: 'Unknown, revoked or expired API key.' },
  origine_interdite: {
    status: 403,
    description:
      'API key used from a browser (Origin header), or the refresh cookie without the portal’s own Origin.',
  },
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
  // Single sign-on's flow (SPEC §13): the start and callback routes' own failures.
  etat_sso_invalide: {
    status: 400,
    description:
      'Single sign-on: the `state` is missing, unknown, expired, already used, or was started in another browser.',
  },
  jeton_sso_invalide: {
    status: 401,
    description:
      'Single sign-on: the identity provider refused the sign-in, or its ID token failed a check (params.reason).',
  },
  fournisseur_sso_indisponible: {
    status: 502,
    description:
      'Single sign-on: the identity provider is unreachable, too slow, or answered with an error (params.reason).',
  },
  introuvable: { status: 404, description: 'No such route or record (in this tenant).' },
  transition_invalide: { status: 409, description: 'Status transition not allowed.' },
  conflit: { status: 409, description: 'Uniqueness or concurrency conflict.' },
  document_lettre: {
    status: 409,
    description:
      'Cancelling a document or payment that allocations settle (params.allocations): delete them first.',
  },
  ecriture_desequilibree: {
    status: 422,
    description:
      'An entry whose debits and credits differ, or with fewer than two lines (params.debit_cents, params.credit_cents).',
  },
  quantite_depassee: {
    status: 422,
    description:
      "A conversion above a line's remaining quantity, or with nothing left at all (params.line_id, params.remaining, params.requested).",
  },
  stock_insuffisant: {
    status: 422,
    description:
      'A stock movement that would leave a location negative (params.product_id, params.location_id, params.available: on hand there, params.requested).',
  },
  periode_cloturee: {
    status: 422,
    description:
      'A posting dated in a closed period or fiscal year (params.date, params.period_id).',
  },
  compte_invalide: {
    status: 422,
    description:
      'A posting to a group, archived or unset account (params.account_id or params.setting, params.reason).',
  },
  montant_depasse: {
    status: 422,
    description:
      'An allocation above what the payment has left or the document still owes (params.available_cents).',
  },
  taux_de_change_manquant: {
    status: 422,
    description:
      'A foreign-currency document with no exchange rate on or before its date (params.currency, params.date).',
  },
  facture_electronique_invalide: {
    status: 422,
    description:
      'An e-invoice fails the EN 16931 rules, or cannot be made or read (params.rules: the failed rule ids and their text).',
  },
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
  surcharge: {
    status: 503,
    description:
      'A server-side limit stopped the request (statement time, waiting for a database connection); retry after Retry-After.',
  },
  console_indisponible: {
    status: 503,
    description: 'The console’s files are not built (`pnpm --filter @erp/console build`).',
  },
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

const STATUS_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  408: 'RequestTimeout',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  429: 'TooManyRequests',
  431: 'HeaderFieldsTooLarge',
  500: 'InternalError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
};

interface ErrorResponseComponent {
  [extension: `x-${string}`]: unknown;
  description: string;
  content: { 'application/json': { schema: { $ref: string } } };
}
const responseComponents = new Map<string, ErrorResponseComponent>();

/**
 * OpenAPI responses for the given error codes, grouped by status. Each group is a shared
 * component (`components.responses`), named by its status and, unless it holds every code of
 * that status, its codes: operations refer to it instead of repeating it.
 */
export function errorResponses(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'erreur_interne' as const]) {
    const status = errorCatalogue[code].status;
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => {
      const everyCode = errorCodes.filter((c) => errorCatalogue[c].status === status);
      const statusName = STATUS_NAMES[status] ?? `Status${status}`;
      const name =
        list.length === everyCode.length ? statusName : `${statusName}_${list.join('_')}`;
      if (!responseComponents.has(name))
        responseComponents.set(name, {
          description: list.map((c) => `\`${c}\`: ${errorCatalogue[c].description}`).join(' '),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        });
      return [status, { $ref: `#/components/responses/${name}` }];
    }),
  );
}

/** The error responses operations refer to, by name, for `components.responses`. */
export function errorResponseComponents(): [string, ErrorResponseComponent][] {
  return [...responseComponents].sort(([a], [b]) => a.localeCompare(b));
}
