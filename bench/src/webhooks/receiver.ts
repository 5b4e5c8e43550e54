import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { clock, serveParent } from './child';

/**
 * The subscribers' endpoint, in a process of its own: node:http on 127.0.0.1, keep-alive,
 * `200 ok` to every POST under `/hooks/<subscription id>`. It counts requests and distinct
 * delivery ids, stamps each arrival (for latency), and verifies every `X-Service-Signature`
 * against the subscription's secret (sent by the benchmark), so what is counted was signed.
 * The signatures are verified when the phase's figures are asked for (`stats`), not as the
 * requests arrive: a subscriber verifies on its own machine, here it would take the worker's
 * CPU in the timed window, which 1c's unsigned POSTs do not (issue 30).
 */
const secrets = new Map<string, string>();
let deliveryIds: string[] = [];
let arrivals: number[] = [];
let unsigned = 0;
let badSignatures = 0;
/** What arrived, to verify at `stats`: subscription, timestamp and signature headers, body. */
let unverified: Array<[string, string | undefined, string | undefined, string, number]> = [];

function verify(
  subscriptionId: string,
  timestamp: string | undefined,
  header: string | undefined,
  body: string,
  receivedAt: number,
) {
  const secret = secrets.get(subscriptionId);
  if (!secret || timestamp === undefined || header === undefined) {
    unsigned++;
    return;
  }
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
  );
  // Fresh when it arrived.
  const fresh = Math.abs(Number(timestamp) - receivedAt / 1000) < 300;
  const ok = header.split(',').some((candidate) => {
    const given = Buffer.from(candidate.trim());
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok || !fresh) badSignatures++;
}

function verifyArrived() {
  for (const [subscriptionId, timestamp, header, body, receivedAt] of unverified)
    verify(subscriptionId, timestamp, header, body, receivedAt);
  unverified = [];
}

const header = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

const server = http.createServer((req, res) => {
  const at = clock();
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const subscriptionId = req.url?.startsWith('/hooks/') ? req.url.slice(7) : '';
    deliveryIds.push(String(req.headers['x-service-delivery-id'] ?? ''));
    arrivals.push(at);
    unverified.push([
      subscriptionId,
      header(req.headers['x-service-timestamp']),
      header(req.headers['x-service-signature']),
      Buffer.concat(chunks).toString('utf8'),
      Date.now(),
    ]);
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
  });
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 125_000;

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  serveParent(async (request) => {
    switch (request.type) {
      case 'port':
        return { port };
      case 'secrets':
        for (const [id, secret] of Object.entries(request.secrets as Record<string, string>))
          secrets.set(id, secret);
        return {};
      case 'reset':
        deliveryIds = [];
        arrivals = [];
        unverified = [];
        unsigned = 0;
        badSignatures = 0;
        return {};
      case 'count':
        return { count: arrivals.length };
      case 'stats': {
        verifyArrived();
        const unique = new Set(deliveryIds).size;
        return {
          count: arrivals.length,
          unique,
          duplicates: arrivals.length - unique,
          unsigned,
          badSignatures,
          ...(request.arrivals ? { deliveryIds, arrivals } : {}),
        };
      }
      default:
        throw new Error(`unknown request ${String(request.type)}`);
    }
  });
});

process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
