import { createRoute, z } from '@hono/zod-openapi';
import { type ErrorCode, errorResponses } from '../errors';
import {
  AccountingSettingsSchema,
  AgedBalanceSchema,
  AgedQuerySchema,
  FecQuerySchema,
  GeneralLedgerQuerySchema,
  GeneralLedgerSchema,
  TrialBalanceQuerySchema,
  TrialBalanceSchema,
  UpdateAccountingSettingsBodySchema,
} from '../schemas/accounting';
import { TenantHeadersSchema } from '../schemas/common';
import { API_KEY, jsonBody, jsonResponse, SESSION } from './helpers';

const errors: ErrorCode[] = [
  'requete_invalide',
  'tenant_requis',
  'non_authentifie',
  'jeton_invalide',
  'cle_api_invalide',
  'tenant_invalide',
  'acces_refuse',
  'module_non_souscrit',
];
const base = { tags: ['Settings: accounting'] };
const path = '/api/v1/settings/accounting';

export const getAccountingSettings = createRoute({
  operationId: 'getAccountingSettings',
  ...base,
  security: [SESSION, API_KEY],
  method: 'get',
  path,
  summary: 'The company currency and the default accounts of the postings',
  description: 'Needs `accounting:read`.',
  request: { headers: TenantHeadersSchema },
  responses: {
    200: jsonResponse(AccountingSettingsSchema, 'The settings.'),
    ...errorResponses(...errors),
  },
});

export const updateAccountingSettings = createRoute({
  operationId: 'updateAccountingSettings',
  ...base,
  security: [SESSION],
  method: 'put',
  path,
  summary: 'Set the company currency and the default accounts',
  description:
    'Admins only, through a session. The fields sent change, the others stay. Each account must be an active, non-group account of the tenant (`compte_invalide` with `params.setting` and `params.reason`).',
  request: { headers: TenantHeadersSchema, body: jsonBody(UpdateAccountingSettingsBodySchema) },
  responses: {
    200: jsonResponse(AccountingSettingsSchema, 'The settings as stored.'),
    ...errorResponses(...errors, 'compte_invalide'),
  },
});

const reportErrors: ErrorCode[] = [...errors, 'filtre_invalide'];

export const trialBalance = createRoute({
  operationId: 'getTrialBalance',
  tags: ['Reports'],
  security: [SESSION, API_KEY],
  method: 'get',
  path: '/api/v1/reports/trial-balance',
  summary: 'Trial balance: every account’s opening, movements and closing over a period',
  description:
    'From the ledger (the lines of every posted entry), never from documents. Balance = debit − credit; `totals.debit_cents` equals `totals.credit_cents` and the closings sum to 0. Its cost follows the months and accounts asked, not the history: whole months are read from balances kept by account and month. Needs `accounting:read`. `from` after `to`: 400 `requete_invalide`.',
  request: { headers: TenantHeadersSchema, query: TrialBalanceQuerySchema },
  responses: {
    200: jsonResponse(TrialBalanceSchema, 'The trial balance.'),
    ...errorResponses(...reportErrors),
  },
});

export const generalLedger = createRoute({
  operationId: 'getGeneralLedger',
  tags: ['Reports'],
  security: [SESSION, API_KEY],
  method: 'get',
  path: '/api/v1/reports/general-ledger',
  summary:
    'General ledger: an account’s posted lines with their entry, document and running balance',
  description:
    'From the ledger, in posting order (date, then when posted), keyset paginated: follow `next_cursor`, which carries the running balance, so a page costs its own lines. Needs `accounting:read`. An account of another tenant: 404 `introuvable`.',
  request: { headers: TenantHeadersSchema, query: GeneralLedgerQuerySchema },
  responses: {
    200: jsonResponse(GeneralLedgerSchema, 'A page of the account’s lines.'),
    ...errorResponses(...reportErrors, 'introuvable'),
  },
});

const aged = (side: 'receivables' | 'payables') =>
  createRoute({
    operationId: side === 'receivables' ? 'getAgedReceivables' : 'getAgedPayables',
    tags: ['Reports'],
    security: [SESSION, API_KEY],
    method: 'get',
    path: `/api/v1/reports/aged-${side}`,
    summary: `Aged ${side}: what each ${side === 'receivables' ? 'customer owes' : 'supplier is owed'}, by how late`,
    description: `From the ledger at \`at\`: each ${side === 'receivables' ? 'receivable' : 'payable'} line by its due date (a payment or a credit note by its own date, counting against), the allocations made by then moving what they settle. Buckets: not yet due, 1–30, 31–60, 61–90 and over 90 days late. The total is the ${side === 'receivables' ? 'receivable' : 'payable'} accounts' closing balance in the trial balance at that date. Needs \`accounting:read\`.`,
    request: { headers: TenantHeadersSchema, query: AgedQuerySchema },
    responses: {
      200: jsonResponse(AgedBalanceSchema, 'The aged balance.'),
      ...errorResponses(...reportErrors),
    },
  });

export const agedReceivables = aged('receivables');
export const agedPayables = aged('payables');

export const fecExport = createRoute({
  operationId: 'exportFec',
  tags: ['Reports'],
  security: [SESSION, API_KEY],
  method: 'get',
  path: '/api/v1/reports/fec',
  summary: 'The FEC of a fiscal year (Fichier des Écritures Comptables)',
  description:
    'Article A47 A-1 of the Livre des procédures fiscales: tab-separated, UTF-8, the 18 columns `JournalCode JournalLib EcritureNum EcritureDate CompteNum CompteLib CompAuxNum CompAuxLib PieceRef PieceDate EcritureLib Debit Credit EcritureLet DateLet ValidDate Montantdevise Idevise`, dates `YYYYMMDD`, amounts with a decimal comma, one line per posted journal line of the year (reversals included), entries numbered without gaps per journal in the order they were posted. Needs `accounting:read`. An unknown fiscal year: 404 `introuvable`.',
  request: { headers: TenantHeadersSchema, query: FecQuerySchema },
  responses: {
    200: {
      description: 'The FEC file.',
      content: { 'text/tab-separated-values': { schema: z.string() } },
    },
    ...errorResponses(...reportErrors, 'introuvable'),
  },
});
