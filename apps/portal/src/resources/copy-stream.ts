import { createRequire } from 'node:module';
import type pg from 'pg';
import type { HeldTransaction } from './tenant-database';

export interface CopyStreamOptions {
  /** The size of the chunks written to the response. */
  chunkBytes?: number;
  /** A reader that takes nothing for this long loses the stream (its connection is needed). */
  stallMs?: number;
  /**
   * The stream's whole time from the start of the COPY: past it the stream is cut short and the
   * connection dropped, however steadily the reader reads (a reader slow enough never to stall
   * still holds an export slot and a connection). PostgreSQL's `statement_timeout` cannot do
   * it: a backend blocked writing to a slow client does not act on a cancel. Unset: no limit.
   */
  budgetMs?: number;
  /** Told when the stream fails once rows flow (the response can only be cut short then). */
  onError?: (error: unknown) => void;
}

/** PostgreSQL's binary COPY header: signature, flags, header extension length. */
const HEADER = 19;

/**
 * Streams the rows of `sql` (a one-text-column query: each row a line built by PostgreSQL) with
 * `COPY (…) TO STDOUT (FORMAT binary)` in a held read-only transaction, each line followed by
 * `separator`. The rows reach Node as bytes and leave as bytes, copied into fixed-size chunks:
 * no string per row, whose garbage V8 promotes to its old generation, where only a full
 * collection frees it (rows read as strings through a cursor grew the portal by 200 MB over a
 * million rows). The binary format carries each line as is (the text format would escape
 * backslashes). COPY takes no bind parameters: they are written into it as quoted literals
 * (`inlineValues`).
 *
 * The statement has started and its first bytes (or its end) arrived before this returns, so a
 * statement PostgreSQL refuses is an error of the request, not a response cut short. Then the
 * socket is paused while the reader has a chunk it has not taken (PostgreSQL waits on TCP),
 * so memory stays at a chunk or two whatever the size. A reader that cancels (a client that
 * disconnects) or stalls ends the COPY by dropping the connection, the one way to stop a
 * COPY midway without reading the rest; the pool opens another.
 */
export async function streamCopy(
  transaction: HeldTransaction,
  sql: { text: string; values: unknown[] },
  render: { head: string; separator: string },
  options: CopyStreamOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const { client } = transaction;
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  const stallMs = options.stallMs ?? 60_000;
  const separator = Buffer.from(render.separator);
  const socket = (client as unknown as { connection: { stream: NodeJS.ReadableStream } }).connection
    .stream;

  const lines = new LineChunks(Buffer.from(render.head), separator, chunkBytes);
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let finished = false;
  let stall: NodeJS.Timeout | undefined;
  let budget: NodeJS.Timeout | undefined;
  /** Ends the transaction: rolled back once the COPY is over, the connection dropped if not. */
  const finish = (copyOver: boolean) => {
    finished = true;
    clearTimeout(stall);
    clearTimeout(budget);
    return copyOver ? transaction.end() : transaction.abort();
  };
  const abort = () => finish(false);
  /**
   * Hands the full chunks to the reader; while the COPY runs and the reader holds more than it
   * asked for, waits for it.
   */
  const offer = (copyRunning = true) => {
    if (!controller || finished) return;
    for (const chunk of lines.take()) controller.enqueue(chunk);
    if (!copyRunning || (controller.desiredSize ?? 1) > 0) return;
    socket.pause();
    clearTimeout(stall);
    const c = controller;
    stall = setTimeout(() => {
      if (finished) return;
      const error = new Error(`the reader took nothing for ${stallMs} ms`);
      options.onError?.(error);
      void abort();
      c.error(error);
    }, stallMs);
  };

  // Made before the COPY starts: a small result may arrive whole, end included, in one read.
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        clearTimeout(stall);
        if (finished) return;
        socket.resume();
        offer();
      },
      cancel: () => (finished ? undefined : abort()),
    },
    { highWaterMark: 1 },
  );
  let resolved = false;
  const started = new Promise<void>((resolve, reject) => {
    const copy = new CopyOut(
      `COPY (${inlineValues(sql.text, sql.values)}) TO STDOUT (FORMAT binary)`,
      {
        data(bytes) {
          lines.write(bytes);
          resolved = true;
          resolve();
          if (lines.ready()) offer();
        },
        async done() {
          resolve();
          if (finished) return;
          lines.flush();
          offer(false); // the rollback's answer must be read
          await finish(true);
          controller?.close();
        },
        // An error ends the COPY (PostgreSQL's, or the connection's own after an abort).
        failed(error) {
          reject(error);
          if (finished) return;
          void finish(true);
          if (!resolved) return; // refused before any row: the request's error, not the stream's
          options.onError?.(error);
          controller?.error(error);
        },
      },
    );
    client.query(copy as unknown as pg.QueryConfig);
  });
  if (options.budgetMs !== undefined) {
    const budgetMs = options.budgetMs;
    budget = setTimeout(() => {
      if (finished) return;
      const error = new Error(`the export took more than its ${budgetMs} ms`);
      options.onError?.(error);
      void abort();
      controller?.error(error);
    }, budgetMs);
  }
  await started.catch(async (error) => {
    await finish(true);
    throw error;
  });
  return stream;
}

// node-pg's own text form of a parameter (an array as PostgreSQL's array text, a Date as ISO)
// and its literal quoting, the functions its extended protocol and `escapeLiteral` use.
const { prepareValue, escapeLiteral } = createRequire(import.meta.url)('pg/lib/utils') as {
  prepareValue: (value: unknown) => string | Buffer | null;
  escapeLiteral: (text: string) => string;
};

/**
 * `$3::uuid[]` → `'{…}'::uuid[]`: COPY takes no bind parameters, so each is written into the
 * statement as the literal of the text node-pg would have bound (quoted by `escapeLiteral`,
 * the builder's casts kept). No round trip to set them, and nothing read from the session
 * (`current_setting`), which a distributed COPY's shards would not have (SPEC §19).
 */
export function inlineValues(text: string, values: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = prepareValue(values[Number(n) - 1]);
    if (value === null || value === undefined) return 'NULL';
    return escapeLiteral(Buffer.isBuffer(value) ? value.toString('utf8') : String(value));
  });
}

/**
 * node-pg's extension point for protocol-level queries (what pg-copy-streams uses): it sends
 * the COPY and hands over each CopyData message while it is valid (the message's bytes are a
 * view on the parser's buffer, reused on the next read).
 */
class CopyOut {
  constructor(
    readonly text: string,
    private readonly on: {
      data(bytes: Buffer): void;
      done(): void;
      failed(error: unknown): void;
    },
  ) {}
  submit(connection: { query(text: string): void }) {
    connection.query(this.text);
  }
  handleCopyData(message: { chunk: Buffer }) {
    this.on.data(message.chunk);
  }
  handleCommandComplete() {}
  handleReadyForQuery() {
    this.on.done();
  }
  handleError(error: unknown) {
    this.on.failed(error);
  }
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyInResponse() {
    this.on.failed(new Error('unexpected COPY FROM'));
  }
}

/**
 * Reads binary COPY (header, then per row a field count, a length and the bytes; -1 ends it)
 * across message boundaries, and writes each row's one field and the separator into chunks of
 * `size` bytes (a longer row gets a chunk of its own size).
 */
class LineChunks {
  private pending = Buffer.alloc(0);
  private chunk: Buffer;
  private used = 0;
  private readonly full: Buffer[] = [];
  private headerSeen = false;

  constructor(
    head: Buffer,
    private readonly separator: Buffer,
    private readonly size: number,
  ) {
    this.chunk = Buffer.allocUnsafeSlow(Math.max(size, head.length));
    this.used = head.copy(this.chunk, 0);
  }

  write(bytes: Buffer) {
    // Almost always a message holds whole rows; a row split across messages waits in `pending`.
    const data = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    let offset = 0;
    if (!this.headerSeen) {
      if (data.length < HEADER) {
        this.pending = Buffer.from(data);
        return;
      }
      offset = HEADER + data.readInt32BE(15);
      this.headerSeen = true;
    }
    while (data.length - offset >= 2) {
      const fields = data.readInt16BE(offset);
      if (fields === -1) {
        offset += 2;
        continue;
      }
      if (data.length - offset < 6) break;
      const length = data.readInt32BE(offset + 2);
      const size = Math.max(0, length);
      if (data.length - offset - 6 < size) break;
      this.append(data, offset + 6, size);
      offset += 6 + size;
    }
    this.pending = offset < data.length ? Buffer.from(data.subarray(offset)) : Buffer.alloc(0);
  }

  private append(data: Buffer, start: number, length: number) {
    const needed = length + this.separator.length;
    if (this.used + needed > this.chunk.length) {
      this.flush();
      if (needed > this.chunk.length) this.chunk = Buffer.allocUnsafeSlow(needed);
    }
    data.copy(this.chunk, this.used, start, start + length);
    this.used += length;
    this.used += this.separator.copy(this.chunk, this.used);
  }

  /** Whether a full chunk waits. */
  ready(): boolean {
    return this.full.length > 0;
  }

  /** Moves what the current chunk holds to the chunks ready to go. */
  flush() {
    if (this.used === 0) return;
    this.full.push(this.chunk.subarray(0, this.used));
    this.chunk = Buffer.allocUnsafeSlow(this.size);
    this.used = 0;
  }

  take(): Buffer[] {
    return this.full.splice(0);
  }
}
