import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import type { PortalResponse } from './forward';

/**
 * Writes the portal's response straight to the client's socket: headers go out with the first
 * body chunk (one write for a small response), back-pressure is the sockets' own, and a portal
 * failing mid-body cuts the client's response short instead of completing it wrongly.
 */
export function writeToClient(outgoing: ServerResponse, response: PortalResponse): void {
  outgoing.writeHead(response.status, response.headers);
  if (!response.body) {
    outgoing.end();
    return;
  }
  pipeline(response.body, outgoing, () => {});
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
