import net from 'node:net';
import { Agent, fetch } from 'undici';

/** A request an app refuses, and the status and code it must refuse it with. */
export interface Refusal {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  code: string;
}

/** The three refusals every app must survive: a body too large, headers too large, bad JSON. */
export function standardRefusals(paths: { post: string; get: string }): Refusal[] {
  return [
    {
      name: '413',
      method: 'POST',
      path: paths.post,
      headers: { 'content-type': 'application/json' },
      body: `{"x":"${'a'.repeat(3 * 1024 * 1024)}"}`,
      status: 413,
      code: 'charge_trop_volumineuse',
    },
    {
      name: '431',
      method: 'GET',
      path: paths.get,
      headers: { 'x-padding': 'p'.repeat(20 * 1024) },
      status: 431,
      code: 'en_tetes_trop_volumineux',
    },
    {
      name: '400',
      method: 'POST',
      path: paths.post,
      headers: { 'content-type': 'application/json' },
      body: '{"not json',
      status: 400,
      code: 'requete_invalide',
    },
  ];
}

export interface SurvivalReport {
  /** Requests sent, refusals and follow-ups together. */
  requests: number;
  /** Every failure seen: a socket error, or a status or body other than expected. */
  failures: string[];
}

/**
 * Two pooled clients (undici, one keep-alive connection each, so a refused connection is the
 * one the next request would reuse) send each refusal then a plain request, `rounds` times,
 * concurrently. A client must never lose a request because an earlier one was refused.
 */
export async function checkClientsSurviveRefusals(
  baseUrl: string,
  refusals: Refusal[],
  follow: { path: string; status: number },
  rounds = 3,
): Promise<SurvivalReport> {
  const failures: string[] = [];
  let requests = 0;
  const clients = [0, 1].map(() => new Agent({ connections: 1, pipelining: 1 }));
  const send = async (client: Agent, label: string, init: Refusal | typeof follow) => {
    requests++;
    const expected = 'code' in init ? init : undefined;
    try {
      const response = await fetch(`${baseUrl}${init.path}`, {
        dispatcher: client,
        method: expected?.method ?? 'GET',
        headers: expected?.headers,
        body: expected?.body,
      });
      const text = await response.text();
      if (response.status !== init.status)
        failures.push(`${label}: status ${response.status}, expected ${init.status}: ${text}`);
      if (!response.headers.get('x-request-id')) failures.push(`${label}: no X-Request-Id`);
      if (expected) {
        const body = JSON.parse(text) as { code?: unknown; params?: unknown; message?: unknown };
        if (body.code !== expected.code || typeof body.params !== 'object' || !body.message)
          failures.push(`${label}: not the error shape with ${expected.code}: ${text}`);
      }
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      failures.push(`${label}: ${cause?.code ?? ''} ${cause?.message ?? String(error)}`);
    }
  };
  try {
    await Promise.all(
      clients.map(async (client, c) => {
        for (let round = 0; round < rounds; round++) {
          for (const refusal of refusals) {
            await send(client, `client ${c} round ${round} ${refusal.name}`, refusal);
            await send(client, `client ${c} round ${round} after ${refusal.name}`, follow);
          }
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
  return { requests, failures };
}

/** Bytes written verbatim on a new connection, and what came back until the server closed. */
export function rawExchange(port: number, bytes: string, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write(bytes);
    socket.end();
  });
}
