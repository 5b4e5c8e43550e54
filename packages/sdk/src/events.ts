import type { Client } from './client.js';
import type { paths, routes } from './gen/platform.gen.js';
import { sleep } from './retry.js';
import type { Routes } from './types.js';

type FeedOperation = paths['/api/v1/events']['get'];
type FeedPage = FeedOperation['responses'][200]['content']['application/json'];

/** One event of the feed: a webhook body without `delivery_id`, plus its `sequence`. */
export type FeedEvent = FeedPage['data'][number];
/** An event type the feed serves (`sales_order.created`, `lead.qualify`, …). */
export type FeedEventType = FeedEvent['type'];

export interface EventsOptions {
  /**
   * Where to resume: a `cursor` saved from `onCursor`, or the `sequence` of the last event you
   * handled (a webhook's included). Omitted: from the oldest event kept.
   */
  after?: string | number;
  /** Only these types. */
  types?: readonly FeedEventType[];
  /** Events per request (the portal's default when omitted; at most 1000). */
  pageSize?: number;
  /** Keep polling once caught up (default true); false ends the iteration there. */
  follow?: boolean;
  /** Pause between polls once caught up (default 1000 ms). */
  pollIntervalMs?: number;
  /** Ends the iteration (quietly) and cancels a request or pause in progress. */
  signal?: AbortSignal;
  /**
   * Called with the position to resume from once every event before it was handled (your loop
   * body returned for each): save it to resume with `after`. It can move past events the
   * filters skipped, so resuming never reads them again.
   */
  onCursor?: (cursor: string) => void | Promise<void>;
}

/**
 * The tenant's events, oldest first, following `next_cursor` (SPEC §12): never one missed,
 * never one twice, also while the portal's writers commit concurrently. Throws the `ApiError`
 * of a failed page (an expired cursor included); the client's retries come first.
 *
 * ```ts
 * for await (const event of events(client, { after: await load(), onCursor: save, signal })) {
 *   await handle(event);
 * }
 * ```
 */
export async function* events<R extends Routes>(
  client: Client<R>,
  options: EventsOptions = {},
): AsyncGenerator<FeedEvent, void> {
  // Any client: the feed is the platform's route, whichever module the client is typed with.
  const platform = client as unknown as Client<routes>;
  const { follow = true, pollIntervalMs = 1_000, signal } = options;
  let cursor = options.after === undefined ? undefined : String(options.after);
  const type = options.types?.length ? options.types.join(',') : undefined;
  while (!signal?.aborted) {
    const page = await platform.get('/api/v1/events', {
      query: {
        ...(cursor === undefined ? {} : { after: cursor }),
        ...(type === undefined ? {} : { type }),
        ...(options.pageSize === undefined ? {} : { page_size: options.pageSize }),
      },
      ...(signal ? { signal } : {}),
    });
    if (page.error) {
      if (signal?.aborted) return;
      throw page.error;
    }
    for (const event of page.data.data) yield event;
    if (page.data.next_cursor !== cursor) {
      cursor = page.data.next_cursor;
      await options.onCursor?.(cursor);
    }
    if (page.data.has_more) continue;
    if (!follow) return;
    if (!(await sleep(pollIntervalMs, signal))) return;
  }
}
