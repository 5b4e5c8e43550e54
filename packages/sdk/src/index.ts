/**
 * The whole API in one entry: every module's routes and helpers. A file that uses one module
 * type-checks faster through that module's entry (`sales.ts`, `accounting.ts`…, README).
 */
import type { routes } from './api.gen.js';
import { anyOp, type BatchOps, type BatchPathOf } from './batch.js';
import {
  type Client as ClientOf,
  type ClientOptions,
  createClient as createClientOf,
} from './client.js';
import type { HistoryPathOf, HistoryRecordOf } from './history.js';
import type { ItemOf, ListPathOf, ListQueryOf, Method, PageOf, PathOf, Routes } from './types.js';

export type { components, paths, routes, webhooks } from './api.gen.js';
export * from './common.js';
export * from './einvoice.js';
export * from './events.js';
export * from './webhooks.js';

/** A client of the whole API. */
export type Client = ClientOf<routes>;

/** A typed client of the portal API: every path, parameter, body and answer from the contract. */
export function createClient<R extends Routes = routes>(options: ClientOptions): ClientOf<R> {
  return createClientOf<R>(options);
}

/** The operations of a batch, typed like the client's calls (batch.ts). */
export const op = anyOp as unknown as BatchOps<routes>;

/** The paths that have an operation for `M`. */
export type PathsFor<M extends Method> = PathOf<routes, M>;
/** GET paths answering a page: `{data: [...], next_cursor}`. */
export type ListPath = ListPathOf<routes>;
/** A page of `P`. */
export type Page<P extends ListPath> = PageOf<routes, P>;
/** One row of a page of `P`. */
export type Item<P extends ListPath> = ItemOf<routes, P>;
/** The query a list accepts: its filterable fields, `order`, `page_size` and `cursor`. */
export type ListQuery<P extends ListPath> = ListQueryOf<routes, P>;
/** Record-history paths: `/api/v1/<resource>/{id}/history`. */
export type HistoryPath = HistoryPathOf<routes>;
/** The record a history path belongs to. */
export type HistoryRecord<P extends HistoryPath> = HistoryRecordOf<routes, P>;
/** The paths of `M` a batch can run. */
export type BatchPath<M extends 'get' | 'post' | 'patch' | 'delete'> = BatchPathOf<routes, M>;
