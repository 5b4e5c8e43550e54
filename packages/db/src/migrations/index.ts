import type { Migration } from 'kysely/migration';
import * as identity from './2026-11-22-0001-identity';
import * as rateLimit from './2026-11-22-0002-rate-limit';
import * as authenticateApiKey from './2026-11-22-0003-authenticate-api-key';
import * as businessFoundation from './2026-11-22-0004-business-foundation';
import * as firstCatalogue from './2026-11-22-0005-first-catalogue';
import * as rateLimitRing from './2026-11-22-0006-rate-limit-ring';
import * as coalescedUnits from './2026-11-22-0007-coalesced-units';
import * as oneRateLimiter from './2026-11-22-0008-one-rate-limiter';
import * as webhooks from './2026-11-23-0009-webhooks';
import * as landing from './2026-11-23-0010-landing';
import * as subscriptionEventOrder from './2026-11-23-0011-subscription-event-order';
import * as tenantReferences from './2026-11-24-0012-tenant-references';
import * as loginFailures from './2026-11-24-0013-login-failures';
import * as renamedStatusesDeclaredIndexes14 from './2026-11-24-0014-renamed-statuses-declared-indexes';
import * as fullCatalogue15 from './2026-11-24-0015-full-catalogue';
import * as sso16 from './2026-11-24-0016-sso';
import * as passwordTokens17 from './2026-11-24-0017-password-tokens';
import * as eventFeed18 from './2026-11-24-0018-event-feed';
import * as recordHistory19 from './2026-11-24-0019-record-history';
import * as batchUnits20 from './2026-11-24-0020-batch-units';
import * as auditLog22 from './2026-11-24-0022-audit-log';
import * as webhookOutbox23 from './2026-11-25-0023-webhook-outbox';
import * as eventTraceContext25 from './2026-11-25-0025-event-trace-context';
import * as providerBindings26 from './2026-11-28-0026-provider-bindings';
import * as fairUse27 from './2026-11-28-0027-fair-use';
import * as invitations28 from './2026-11-28-0028-invitations';
import * as idempotencyPrincipal29 from './2026-11-28-0029-idempotency-principal';
import * as ledger30 from './2026-11-28-0030-ledger';
import * as books31 from './2026-11-28-0031-books';
import * as postingCost32 from './2026-11-28-0032-posting-cost';
import * as refunds33 from './2026-11-28-0033-refunds';
import * as partyAccounts34 from './2026-11-28-0034-party-accounts';
import * as goods35 from './2026-11-28-0035-goods';
import * as goodsFlow36 from './2026-11-28-0036-goods-flow';
import * as einvoicing37 from './2026-11-28-0037-einvoicing';
import * as einvoicingCatalogue38 from './2026-11-28-0038-einvoicing-catalogue';
import * as tenantPositions39 from './2026-11-28-0039-tenant-positions';
import * as tenantPrimaryKeys40 from './2026-11-28-0040-tenant-primary-keys';
import * as tenantKeysWebhooks41 from './2026-11-28-0041-tenant-keys-webhooks';
import * as perTenantEventNumbering42 from './2026-11-28-0042-per-tenant-event-numbering';
import * as rowLevelCursorTriggers43 from './2026-11-28-0043-row-level-cursor-triggers';
import * as statementIds44 from './2026-11-28-0044-statement-ids';
import * as deliveryWriteCosts45 from './2026-11-28-0045-delivery-write-costs';
import * as numberingIndexScans46 from './2026-11-28-0046-numbering-index-scans';
import * as documentNumberFormat47 from './2026-11-28-0047-document-number-format';
import * as numberingNoSeqscan48 from './2026-11-28-0048-numbering-no-seqscan';
import * as firstAttemptInline49 from './2026-11-28-0049-first-attempt-inline';
import * as documentNumberInlined50 from './2026-11-28-0050-document-number-inlined';

/** Every migration, in order. A static index so bundlers and container images keep them. */
export const migrations: Record<string, Migration> = {
  '2026-11-22-0001-identity': identity,
  '2026-11-22-0002-rate-limit': rateLimit,
  '2026-11-22-0003-authenticate-api-key': authenticateApiKey,
  '2026-11-22-0004-business-foundation': businessFoundation,
  '2026-11-22-0005-first-catalogue': firstCatalogue,
  '2026-11-22-0006-rate-limit-ring': rateLimitRing,
  '2026-11-22-0007-coalesced-units': coalescedUnits,
  '2026-11-22-0008-one-rate-limiter': oneRateLimiter,
  '2026-11-23-0009-webhooks': webhooks,
  '2026-11-23-0010-landing': landing,
  '2026-11-23-0011-subscription-event-order': subscriptionEventOrder,
  '2026-11-24-0012-tenant-references': tenantReferences,
  '2026-11-24-0013-login-failures': loginFailures,
  '2026-11-24-0014-renamed-statuses-declared-indexes': renamedStatusesDeclaredIndexes14,
  '2026-11-24-0015-full-catalogue': fullCatalogue15,
  '2026-11-24-0016-sso': sso16,
  '2026-11-24-0017-password-tokens': passwordTokens17,
  '2026-11-24-0018-event-feed': eventFeed18,
  '2026-11-24-0019-record-history': recordHistory19,
  '2026-11-24-0020-batch-units': batchUnits20,
  '2026-11-24-0022-audit-log': auditLog22,
  '2026-11-25-0023-webhook-outbox': webhookOutbox23,
  '2026-11-25-0025-event-trace-context': eventTraceContext25,
  '2026-11-28-0026-provider-bindings': providerBindings26,
  '2026-11-28-0027-fair-use': fairUse27,
  '2026-11-28-0028-invitations': invitations28,
  '2026-11-28-0029-idempotency-principal': idempotencyPrincipal29,
  '2026-11-28-0030-ledger': ledger30,
  '2026-11-28-0031-books': books31,
  '2026-11-28-0032-posting-cost': postingCost32,
  '2026-11-28-0033-refunds': refunds33,
  '2026-11-28-0034-party-accounts': partyAccounts34,
  '2026-11-28-0035-goods': goods35,
  '2026-11-28-0036-goods-flow': goodsFlow36,
  '2026-11-28-0037-einvoicing': einvoicing37,
  '2026-11-28-0038-einvoicing-catalogue': einvoicingCatalogue38,
  '2026-11-28-0039-tenant-positions': tenantPositions39,
  '2026-11-28-0040-tenant-primary-keys': tenantPrimaryKeys40,
  '2026-11-28-0041-tenant-keys-webhooks': tenantKeysWebhooks41,
  '2026-11-28-0042-per-tenant-event-numbering': perTenantEventNumbering42,
  '2026-11-28-0043-row-level-cursor-triggers': rowLevelCursorTriggers43,
  '2026-11-28-0044-statement-ids': statementIds44,
  '2026-11-28-0045-delivery-write-costs': deliveryWriteCosts45,
  '2026-11-28-0046-numbering-index-scans': numberingIndexScans46,
  '2026-11-28-0047-document-number-format': documentNumberFormat47,
  '2026-11-28-0048-numbering-no-seqscan': numberingNoSeqscan48,
  '2026-11-28-0049-first-attempt-inline': firstAttemptInline49,
  '2026-11-28-0050-document-number-inlined': documentNumberInlined50,
};
