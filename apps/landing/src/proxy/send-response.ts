import type { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { closeIfAnsweredEarly } from '@erp/http';
import type { PortalResponse } from './forward';

/** The client's side of one exchange: `aborted` once it hung up before its response was complete, then 'abort'. */
export type ClientWatch = EventEmitter & { aborted?: boolean };

/**
 * Writes the portal's response straight to the client's socket: headers go out with the first
 * body chunk (one write for a small response), back-pressure is the sockets' own, and a portal
 * failing mid-body cuts the client's response short instead of completing it wrongly.
 */
export function writeToClient(outgoing: ServerResponse, response: PortalResponse): void {
  closeIfAnsweredEarly(outgoing);
  outgoing.writeHead(response.status, response.headers);
  if (!response.body) {
    outgoing.end();
    return;
  }
  pipeline(response.body, outgoing, () => {});
}

/**
 * `writeToClient` keeping a copy of the body for the cache: `done(body)` with the complete
 * bytes, or `done(undefined)` as soon as there will be none (over `limit` bytes — the client
 * still gets every byte —, portal failure, nobody left to read for). A client that hangs up does
 * not stop the reading while `keepReading()` (someone else waits for this answer).
 */
export function writeToClientKeepingBody(
  outgoing: ServerResponse,
  client: ClientWatch,
  response: { status: number; headers: string[]; body: Readable },
  options: { limit: number; keepReading: () => boolean; done: (body?: Buffer) => void },
): void {
  const { body } = response;
  let chunks: Buffer[] | undefined = [];
  let length = 0;
  let finished = false;
  const finish = (result?: Buffer) => {
    if (finished) return;
    finished = true;
    options.done(result);
  };
  const stopKeeping = () => {
    chunks = undefined;
    finish();
  };
  const clientLeft = () => {
    if (chunks && options.keepReading()) body.resume();
    else {
      stopKeeping();
      body.destroy();
    }
  };
  if (client.aborted) clientLeft();
  else {
    closeIfAnsweredEarly(outgoing);
    outgoing.writeHead(response.status, response.headers);
    client.once('abort', clientLeft);
    outgoing.on('drain', () => body.resume());
  }
  body.on('data', (chunk: Buffer) => {
    if (chunks) {
      length += chunk.length;
      if (length <= options.limit) chunks.push(chunk);
      else stopKeeping();
    }
    if (client.aborted) {
      if (!chunks) body.destroy(); // read on for the cache only
    } else if (!outgoing.write(chunk)) body.pause();
  });
  body.once('end', () => {
    if (chunks) finish(Buffer.concat(chunks, length));
    if (!client.aborted) outgoing.end();
  });
  // A portal failing mid-body cuts the client's response short instead of completing it wrongly.
  body.once('error', () => {
    stopKeeping();
    outgoing.destroy();
  });
  body.once('close', stopKeeping);
}

/** A stored response, with the headers of this answer (Age, X-Request-Id). */
export function writeStoredToClient(
  outgoing: ServerResponse,
  status: number,
  headers: string[],
  body: Buffer,
): void {
  closeIfAnsweredEarly(outgoing);
  outgoing.writeHead(status, headers);
  outgoing.end(body);
}

/** The same response as a web `Response` (for `app.request()`, where there is no socket). */
export function toWebResponse(response: PortalResponse): Response {
  const headers = new Headers();
  for (let i = 0; i < response.headers.length; i += 2) {
    headers.append(response.headers[i] as string, response.headers[i + 1] as string);
  }
  const body = response.body ? webStream(response.body) : null;
  return new Response(body, { status: response.status, headers });
}

/** Pull-based, so a slow client slows the portal's socket down instead of filling memory. */
function webStream(body: Readable): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value as Uint8Array);
      },
      cancel(reason) {
        body.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
