import type { HeldTransaction } from './tenant-database';

export interface CursorStreamOptions {
  /** What one fetch aims at, in bytes: the number of rows adapts to their size. */
  chunkBytes?: number;
  /** A reader that takes nothing for this long loses the stream (its connection is needed). */
  stallMs?: number;
  /** Told when the stream fails once rows flow (the response can only be cut short then). */
  onError?: (error: unknown) => void;
}

const FIRST_FETCH = 100;
const MIN_FETCH = 16;
const MAX_FETCH = 5_000;

/**
 * Streams the one-text-per-row result of `sql` from a server-side cursor in a held read-only
 * transaction. The cursor is declared and the first chunk fetched before this returns, so a
 * statement PostgreSQL refuses is an error of the request, not a response cut short. After
 * that, a chunk is fetched only when the reader wants one (one chunk ahead): memory stays at
 * about two chunks whatever the size. The transaction ends, and its connection goes back to
 * the pool, when the rows are done, when the reader cancels (a client that disconnects) or
 * stalls, and on any failure.
 */
export async function streamCursor(
  transaction: HeldTransaction,
  sql: { text: string; values: unknown[] },
  render: { head: string; separator: string },
  options: CursorStreamOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const { client } = transaction;
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  const stallMs = options.stallMs ?? 60_000;
  let size = FIRST_FETCH;
  let exhausted = false;
  let finished = false;
  let stall: NodeJS.Timeout | undefined;

  const fetchRows = async (): Promise<string[]> => {
    const { rows } = await client.query<[string]>({
      text: `FETCH ${size} FROM export_rows`,
      rowMode: 'array',
    });
    if (rows.length < size) exhausted = true;
    const lines = rows.map((r) => r[0]);
    const bytes = lines.reduce((n, line) => n + line.length, 0);
    if (lines.length) {
      const perRow = Math.max(1, bytes / lines.length);
      size = Math.min(MAX_FETCH, Math.max(MIN_FETCH, Math.floor(chunkBytes / perRow)));
    }
    return lines;
  };
  const finish = async () => {
    finished = true;
    clearTimeout(stall);
    await transaction.end();
  };

  let first: string[];
  try {
    await client.query({
      text: `DECLARE export_rows NO SCROLL CURSOR FOR ${sql.text}`,
      values: sql.values,
    });
    first = await fetchRows();
  } catch (error) {
    await finish();
    throw error;
  }
  let head = render.head;
  const encode = (lines: string[]) => {
    const text = head + lines.map((line) => line + render.separator).join('');
    head = '';
    return Buffer.from(text, 'utf8');
  };

  let pending: string[] | undefined = first;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(stall);
        if (finished) return;
        try {
          const lines = pending ?? (exhausted ? [] : await fetchRows());
          pending = undefined;
          if (finished) return; // cancelled while the rows were on their way
          const chunk = encode(lines);
          if (chunk.length) controller.enqueue(chunk);
          if (exhausted) {
            await finish();
            controller.close();
            return;
          }
          stall = setTimeout(() => {
            const error = new Error(`the reader took nothing for ${stallMs} ms`);
            options.onError?.(error);
            controller.error(error);
            void finish();
          }, stallMs);
        } catch (error) {
          if (finished) return;
          options.onError?.(error);
          await finish();
          controller.error(error);
        }
      },
      cancel: () => (finished ? undefined : finish()),
    },
    { highWaterMark: 1 },
  );
}
