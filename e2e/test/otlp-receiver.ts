/**
 * An OpenTelemetry collector's trace intake, in the test process: `POST /v1/traces` over
 * OTLP/HTTP, protobuf (what the apps send) or JSON, on 127.0.0.1. It keeps every span with its
 * service. The protobuf reader knows just the fields of `ExportTraceServiceRequest` read here.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
}

export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const requests: { path: string; contentType: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const contentType = String(req.headers['content-type'] ?? '');
      requests.push({ path: req.url ?? '', contentType });
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      try {
        spans.push(...(contentType.includes('json') ? fromJson(body) : fromProtobuf(body)));
      } catch {
        res.writeHead(400).end();
        return;
      }
      // An empty ExportTraceServiceResponse: everything accepted.
      res.writeHead(200, { 'content-type': contentType || 'application/x-protobuf' });
      res.end(contentType.includes('json') ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- protobuf: the wire format, then the few messages we read -------------------------------

type Field = number | bigint | Buffer;

/** A message's fields by number, each value as the wire gave it (varint, bytes, fixed). */
function fields(buffer: Buffer): Map<number, Field[]> {
  const found = new Map<number, Field[]>();
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buffer[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const [number, wire] = [key >>> 3, key & 7];
    let value: Field;
    if (wire === 0) value = varint();
    else if (wire === 1) {
      value = buffer.subarray(at, at + 8);
      at += 8;
    } else if (wire === 2) {
      const length = Number(varint());
      value = buffer.subarray(at, at + length);
      at += length;
    } else if (wire === 5) {
      value = buffer.readUInt32LE(at);
      at += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
    found.set(number, [...(found.get(number) ?? []), value]);
  }
  return found;
}

const bytes = (f: Map<number, Field[]>, n: number) =>
  (f.get(n)?.[0] as Buffer | undefined) ?? Buffer.alloc(0);
const all = (f: Map<number, Field[]>, n: number) => (f.get(n) ?? []) as Buffer[];

function anyValue(buffer: Buffer): string | number | boolean {
  const f = fields(buffer);
  if (f.has(1)) return bytes(f, 1).toString('utf8');
  if (f.has(2)) return f.get(2)![0] === 1n;
  if (f.has(3)) return Number(f.get(3)![0]);
  if (f.has(4)) return bytes(f, 4).readDoubleLE(0);
  return '';
}

function attributes(list: Buffer[]): Record<string, string | number | boolean> {
  const result: Record<string, string | number | boolean> = {};
  for (const entry of list) {
    const f = fields(entry);
    result[bytes(f, 1).toString('utf8')] = anyValue(bytes(f, 2));
  }
  return result;
}

function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of all(fields(body), 1)) {
    const rs = fields(resourceSpans);
    const service = String(attributes(all(fields(bytes(rs, 1)), 1))['service.name'] ?? '');
    for (const scopeSpans of all(rs, 2)) {
      for (const span of all(fields(scopeSpans), 2)) {
        const s = fields(span);
        spans.push({
          service,
          traceId: bytes(s, 1).toString('hex'),
          spanId: bytes(s, 2).toString('hex'),
          parentSpanId: bytes(s, 4).toString('hex'),
          name: bytes(s, 5).toString('utf8'),
          kind: Number(s.get(6)?.[0] ?? 0),
          attributes: attributes(all(s, 9)),
          links: all(s, 13).map((link) => {
            const l = fields(link);
            return { traceId: bytes(l, 1).toString('hex'), spanId: bytes(l, 2).toString('hex') };
          }),
        });
      }
    }
  }
  return spans;
}

// --- JSON (OTLP/HTTP JSON: ids in hex, enum kinds as numbers) --------------------------------

interface JsonKeyValue {
  key: string;
  value: Record<string, unknown>;
}

function jsonAttributes(list: JsonKeyValue[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(
    list.map(({ key, value }) => [key, Object.values(value)[0] as string | number | boolean]),
  );
}

function fromJson(body: Buffer): ReceivedSpan[] {
  const request = JSON.parse(body.toString('utf8')) as {
    resourceSpans: {
      resource?: { attributes?: JsonKeyValue[] };
      scopeSpans: {
        spans: {
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          name: string;
          kind: number;
          attributes?: JsonKeyValue[];
          links?: { traceId: string; spanId: string }[];
        }[];
      }[];
    }[];
  };
  return request.resourceSpans.flatMap((rs) => {
    const service = String(jsonAttributes(rs.resource?.attributes)['service.name'] ?? '');
    return rs.scopeSpans.flatMap((ss) =>
      ss.spans.map((span) => ({
        service,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind,
        attributes: jsonAttributes(span.attributes),
        links: (span.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
      })),
    );
  });
}
