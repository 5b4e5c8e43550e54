import type { Client } from './client.js';
import type { components } from './gen/shared.gen.js';
import type { PathOf, Routes, Success } from './types.js';

/** Record-history paths of `R`: `/api/v1/<resource>/{id}/history`. */
export type HistoryPathOf<R extends Routes> = Extract<PathOf<R, 'get'>, `${string}/{id}/history`>;

/** The record a history path belongs to, as `GET /api/v1/<resource>/{id}` returns it. */
export type HistoryRecordOf<R extends Routes, P extends string> = P extends `${infer T}/history`
  ? T extends keyof R['get']
    ? Success<R['get'][T]>
    : never
  : never;

/**
 * One version of a record: who made it, the action, and `{field: [old, new]}` typed with the
 * record's own fields (`null` where the field had, or has, no value).
 */
export type HistoryEntry<R = Record<string, unknown>> = Omit<
  components['schemas']['HistoryEntry'],
  'changes'
> & {
  changes: { [K in keyof R]?: [R[K] | null, R[K] | null] };
};

export interface HistoryOptions {
  /** Versions per request (1–200, default 50). */
  pageSize?: number;
  /** Resume after the version a previous page's `next_cursor` points at. */
  cursor?: string;
  signal?: AbortSignal;
}

/**
 * Every version of a record, newest first, following `next_cursor` across pages; throws the
 * `ApiError` of a failed page (`introuvable` for a record this tenant never had).
 *
 * @example
 * for await (const v of history(client, '/api/v1/sales-orders/{id}/history', id))
 *   console.log(v.version, v.actor.name, v.action, v.changes.status);
 */
export async function* history<R extends Routes, P extends HistoryPathOf<R>>(
  client: Client<R>,
  path: P,
  id: string,
  options: HistoryOptions = {},
): AsyncGenerator<HistoryEntry<HistoryRecordOf<R, P>>, void> {
  const query = {
    ...(options.pageSize === undefined ? {} : { page_size: options.pageSize }),
    ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
  };
  // The generic pager: a history page is `{data, next_cursor}` like a list's.
  const pages = (client.pages as unknown as (path: string, init: object) => AsyncGenerator<Page>)(
    path,
    { path: { id }, query, signal: options.signal },
  );
  for await (const page of pages) {
    if (page.error) throw page.error;
    yield* page.data.data as HistoryEntry<HistoryRecordOf<R, P>>[];
  }
}

type Page =
  | { data: components['schemas']['HistoryPage']; error?: undefined }
  | { data?: undefined; error: Error };
