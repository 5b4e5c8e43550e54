/**
 * What every entry exports besides its typed client: the filters, errors, history, batch,
 * the session and the generic types. Nothing here names a path, so a file importing one
 * module's entry makes the compiler read that module's types only.
 */
export {
  type BatchOps,
  type BatchOptions,
  type BatchPathOf,
  type BatchResults,
  type BatchStep,
  batch,
  ref,
} from './batch.js';
export type { ApiKeyOptions, Call, ClientOptions, SessionOptions } from './client.js';
export { ApiError, type ClientErrorCode, type ErrorCode } from './errors.js';
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
  type HistoryPathOf,
  type HistoryRecordOf,
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
  ItemOf,
  ListPathOf,
  ListQueryOf,
  PageOf,
  ParseAs,
  PathOf,
  RawBody,
  RequestInit,
  Result,
  Routes,
} from './types.js';
