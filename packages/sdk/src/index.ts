export type { components, paths, webhooks } from './api.gen.js';
export {
  type BatchOptions,
  type BatchPath,
  type BatchResults,
  type BatchStep,
  batch,
  op,
  ref,
} from './batch.js';
export {
  type ApiKeyOptions,
  type Client,
  type ClientOptions,
  createClient,
  type SessionOptions,
} from './client.js';
export {
  EInvoiceError,
  type EInvoiceFile,
  type EInvoiceFormat,
  type EInvoiceOptions,
  type EInvoiceRefusal,
  type EInvoiceRule,
  type EInvoiceUnknownSupplier,
  einvoice,
  type ImportEInvoiceOptions,
  type ImportedEInvoice,
  importEInvoice,
  isEInvoiceError,
  type OriginalEInvoiceFile,
  type OriginalEInvoiceOptions,
  originalEInvoice,
} from './einvoice.js';
export { ApiError, type ClientErrorCode, type ErrorCode } from './errors.js';
export { type EventsOptions, events, type FeedEvent, type FeedEventType } from './events.js';
export {
  eq,
  type FilterValue,
  gt,
  gte,
  ilike,
  in_,
  is,
  like,
  lt,
  lte,
  neq,
  order,
} from './filters.js';
export {
  type HistoryEntry,
  type HistoryOptions,
  type HistoryPath,
  type HistoryRecord,
  history,
} from './history.js';
export {
  type CookieSession,
  type CookieSessionOptions,
  type Credentials,
  cookieSession,
  type Session,
} from './session.js';
export type { EmbeddableName, SelectableField, Shaped, ShapedSuccess } from './shape.js';
export type {
  Item,
  ListPath,
  ListQuery,
  Page,
  ParseAs,
  PathsFor,
  RawBody,
  RequestInit,
  Result,
} from './types.js';
export {
  type SignatureFailure,
  type VerifyResult,
  type VerifyWebhookInput,
  verifyWebhookSignature,
  type WebhookEvent,
} from './webhooks.js';
