import { ApiError } from '@erp/contract';
import type pg from 'pg';

/**
 * How many sequences one page looks at, at most: a filtered page (types, rights) whose events
 * are rare still answers in bounded time, and its `next_cursor` moves past what it skipped.
 * Sequences are dense, so the window bounds the rows read exactly.
 */
export const FEED_SCAN_WINDOW = 10_000;

export interface FeedQuery {
  /** The last sequence the caller has; null: from the oldest event kept. */
  after: bigint | null;
  /** Only these event types; null: all. */
  types: string[] | null;
  /** Only the events of these resources (the caller's readable modules); null: all. */
  resources: string[] | null;
  pageSize: number;
}

/** A page as JSON text: each event's JSON was built by PostgreSQL and is not parsed here. */
export interface FeedPage {
  json: string;
}

/**
 * The page of a tenant's feed: `sequence > after`, oldest first, within `FEED_SCAN_WINDOW`.
 * The sequence is read from `event_sequences` in the same snapshot as the events, so
 * `next_cursor` never passes an event this snapshot could not see: every sequence up to
 * `last_value` is committed and visible with it (see `assign_event_sequences`).
 */
const READ_FEED = {
  name: 'event_feed',
  text: `
  WITH s AS (
    SELECT coalesce(max(last_value), 0) AS last, coalesce(max(purged_through), 0) AS purged
    FROM event_sequences WHERE tenant_id = $1
  )
  SELECT s.last::text AS last, s.purged::text AS purged, e.sequence::text AS sequence, e.j
  FROM s LEFT JOIN LATERAL (
    SELECT e.sequence, json_build_object(
      'id', e.id, 'sequence', e.sequence, 'type', e.type,
      'created_at', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'tenant_id', e.tenant_id, 'data', e.data)::text AS j
    FROM events e
    WHERE e.tenant_id = $1
      AND e.sequence > greatest($2::bigint, s.purged)
      AND e.sequence <= least(s.last, greatest($2::bigint, s.purged) + $6::bigint)
      AND ($3::text[] IS NULL OR e.type = ANY ($3::text[]))
      AND ($4::text[] IS NULL OR e.resource = ANY ($4::text[]))
    ORDER BY e.sequence
    LIMIT $5
  ) e ON true
  ORDER BY e.sequence`,
};

/**
 * Numbers the events committed since the last call (a no-op when none wait): the tenant's only,
 * under its own lock (migration 0042), or every tenant's.
 */
export async function assignSequences(client: pg.PoolClient, tenantId?: string): Promise<void> {
  if (tenantId)
    await client.query({
      name: 'assign_tenant_event_sequences',
      text: 'SELECT assign_event_sequences($1::uuid)',
      values: [tenantId],
    });
  else
    await client.query({ name: 'assign_event_sequences', text: 'SELECT assign_event_sequences()' });
}

/** Reads one page of the tenant's feed (after numbering what has committed). */
export async function readFeed(
  client: pg.PoolClient,
  tenantId: string,
  query: FeedQuery,
): Promise<FeedPage> {
  // Its own statement (its own transaction): the numbers it gives are committed, and so
  // visible to the read below, before anyone can be served them.
  await assignSequences(client, tenantId);
  const { rows } = await client.query<{
    last: string;
    purged: string;
    sequence: string | null;
    j: string | null;
  }>({
    ...READ_FEED,
    values: [
      tenantId,
      query.after === null ? null : query.after.toString(),
      query.types,
      query.resources,
      query.pageSize + 1,
      FEED_SCAN_WINDOW,
    ],
  });
  const last = BigInt(rows[0]!.last);
  const purged = BigInt(rows[0]!.purged);
  if (query.after !== null && query.after < purged) throw cursorRefused('cursor_expired', purged);
  if (query.after !== null && query.after > last) throw cursorRefused('cursor_ahead', last);
  const events = rows.filter((r) => r.sequence !== null);
  const start = query.after ?? purged;
  const upper = last < start + BigInt(FEED_SCAN_WINDOW) ? last : start + BigInt(FEED_SCAN_WINDOW);
  const full = events.length > query.pageSize;
  const page = full ? events.slice(0, query.pageSize) : events;
  // A full page stops at its last event; otherwise everything up to `upper` was looked at.
  const next = full ? page[page.length - 1]!.sequence! : upper.toString();
  const hasMore = full || upper < last;
  return {
    json: `{"data":[${page.map((r) => r.j).join(',')}],"next_cursor":"${next}","has_more":${hasMore}}`,
  };
}

function cursorRefused(code: 'cursor_expired' | 'cursor_ahead', bound: bigint): ApiError {
  const message =
    code === 'cursor_expired'
      ? `events after this position are no longer kept: the feed starts after ${bound}`
      : `beyond the end of this tenant's feed (its last position is ${bound})`;
  return new ApiError('requete_invalide', 'The cursor is not a position of this feed.', {
    issues: [{ location: 'query', path: 'after', code, message }],
  });
}
