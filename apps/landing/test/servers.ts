import http from 'node:http';
import net from 'node:net';
import { serveApp } from '@erp/http';
import { createTestLanding } from './harness';

/** A test landing served by a real HTTP server on 127.0.0.1 (as main.ts serves it). */
export async function startTestLandingServer(env: Record<string, string>) {
  const landing = await createTestLanding(env);
  const server = await serveApp({ fetch: landing.app.fetch, port: 0, host: '127.0.0.1' });
  return {
    ...landing,
    port: server.port,
    url: server.url,
    close: async () => {
      server.server.closeAllConnections();
      await server.close();
      await landing.close();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

/** One request through node:http, bytes and headers as received (nothing decompressed). */
export function send(
  port: number,
  options: {
    method?: string;
    path: string;
    headers?: http.OutgoingHttpHeaders;
    body?: Buffer | string;
  },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            rawHeaders: response.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** A request line written verbatim on a socket: nothing resolves or re-encodes the target. */
export function sendRaw(
  port: number,
  target: string,
  method = 'GET',
  head = 'Content-Length: 2\r\n',
  body = '{}',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(head.split(' ')[1]);
      const body = /transfer-encoding: chunked/i.test(head)
        ? dechunk(rest.join('\r\n\r\n'))
        : rest.join('\r\n\r\n');
      resolve({ status, body });
    });
    socket.write(
      `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${head}Connection: close\r\n\r\n${body}`,
    );
  });
}

function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 4 + size);
  }
}
