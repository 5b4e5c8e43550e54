import type { LookupAddress } from 'node:dns';
import dns from 'node:dns';
import net from 'node:net';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { isPrivateAddress } from '@erp/webhooks';
import { REFUSED_URL_HOSTS } from '@erp/webhooks/address-forms';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningWorker } from '../src/worker';
import {
  createSubscription,
  createTenant,
  deliveryLog,
  recordEvent,
  runWorker,
  startReceiver,
  waitFor,
} from './harness';

/** A fake DNS for names of our own; everything else goes to the system resolver. */
const FAKE_DNS: Record<string, string> = {
  'loop.test': '127.0.0.1',
  'loop6.test': '::1',
  'private.test': '10.1.2.3',
  'metadata.test': '169.254.169.254',
  'compat6.test': '::7f00:1',
  'sixtofour.test': '2002:7f00:1::',
  'nat64.test': '64:ff9b::a9fe:a9fe',
};
const fakeLookup = ((
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (e: Error | null, a: LookupAddress[]) => void,
) => {
  const address = FAKE_DNS[hostname];
  if (!address) return dns.lookup(hostname, { ...options, all: true }, callback);
  callback(null, [{ address, family: net.isIP(address) }]);
}) as unknown as typeof dns.lookup;

// Safety net: whatever happens, no test here opens a connection off this machine.
const outbound: string[] = [];
const connected: string[] = [];
const connect = net.Socket.prototype.connect;
vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (
  this: net.Socket,
  ...args: unknown[]
) {
  // net.connect passes its normalized arguments as one array; tls.connect an options object.
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = first as { host?: string } | number;
  const host = typeof options === 'object' ? options.host : undefined;
  if (host) connected.push(host);
  if (host && net.isIP(host) && !/^(127\.|::1$|::ffff:127\.)/.test(host)) {
    outbound.push(host);
    throw new Error(`test safety net: connection to ${host} stopped`);
  }
  return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
});

let database: TestDatabase;
let worker: RunningWorker;

beforeAll(async () => {
  database = await createTestDatabase();
  worker = await runWorker(
    database,
    { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' },
    { sender: { lookup: fakeLookup } },
  );
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

/** Subscribes to each URL, records one event, and returns each delivery's first attempt. */
async function firstAttempts(urls: string[]) {
  const tenant = await createTenant(database);
  const subs = await Promise.all(urls.map((url) => createSubscription(database, tenant, url)));
  const eventId = await recordEvent(database, tenant);
  const rows = await waitFor(async () => {
    const r = await deliveryLog(database, eventId);
    return r.length === urls.length && r.every((d) => d.attempts >= 1) && r;
  });
  return subs.map((s) => {
    const row = rows.find((d) => d.subscription_id === s.id);
    return { url: urls[subs.indexOf(s)], ...row.attempt_log[0] };
  });
}

describe('subscriber URLs on private addresses, outside development', () => {
  it('refuses loopback, by literal address and by name, before connecting', async () => {
    const receiver = await startReceiver();
    const p = receiver.port;
    const attempts = await firstAttempts([
      `http://127.0.0.1:${p}/hook`,
      `http://[::1]:${p}/hook`,
      `http://[::ffff:127.0.0.1]:${p}/hook`,
      `http://localhost:${p}/hook`,
      `http://loop.test:${p}/hook`,
      `http://loop6.test:${p}/hook`,
    ]);
    for (const a of attempts) {
      expect(a.response_status, a.url).toBeNull();
      expect(a.error, a.url).toMatch(/^refused: .* \(not connected to\)$/);
    }
    expect(receiver.received).toHaveLength(0);
    await receiver.close();
  });

  it('refuses 10/8 and the metadata address 169.254.169.254, by literal and by name', async () => {
    const attempts = await firstAttempts([
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'https://private.test/hook',
      'http://metadata.test/latest/meta-data/',
    ]);
    for (const a of attempts) {
      expect(a.response_status, a.url).toBeNull();
      expect(a.error, a.url).toMatch(/^refused: .* \(not connected to\)$/);
    }
    expect(outbound).toEqual([]);
  });
});

describe('every spelling of a non-public address (the shared table)', () => {
  it('is refused before connecting, by literal and by name', async () => {
    const receiver = await startReceiver();
    const p = receiver.port;
    const urls = [
      ...REFUSED_URL_HOSTS.map((host) => `http://${host}:${p}/hook`),
      `http://compat6.test:${p}/hook`,
      `http://sixtofour.test:${p}/hook`,
      `http://nat64.test:${p}/hook`,
    ];
    const attempts = await firstAttempts(urls);
    const notRefused = attempts
      .filter((a) => !/^refused: .* \(not connected to\)$/.test(a.error ?? ''))
      .map((a) => `${a.url}: ${a.response_status ?? a.error}`);
    expect(notRefused).toEqual([]);
    expect(receiver.received).toHaveLength(0);
    expect(outbound).toEqual([]);
    await receiver.close();
  });
});

describe('redirects', () => {
  let db2: TestDatabase;
  let redirecting: RunningWorker;
  beforeAll(async () => {
    db2 = await createTestDatabase();
    // 127.0.0.2 plays a public receiver; every other private address stays refused.
    redirecting = await runWorker(
      db2,
      { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' },
      {
        sender: { isRefused: (a) => a !== '127.0.0.2' && isPrivateAddress(a) },
      },
    );
  });
  afterAll(async () => {
    await redirecting?.stop();
    await db2?.close();
  });

  it('are not followed: a redirect to a private address reaches nothing', async () => {
    const target = await startReceiver();
    const redirector = await startReceiver(
      () => ({ status: 307, headers: { location: target.url } }),
      '127.0.0.2',
    );
    const tenant = await createTenant(db2);
    await createSubscription(db2, tenant, redirector.url);
    const eventId = await recordEvent(db2, tenant);
    const [delivery] = await waitFor(async () => {
      const r = await deliveryLog(db2, eventId);
      return r[0]?.attempts >= 1 && r;
    });
    expect(redirector.received).toHaveLength(1);
    expect(delivery.attempt_log[0].response_status).toBe(307);
    expect(delivery.status).toBe('pending'); // a 3xx is a failure, retried later
    expect(target.received).toHaveLength(0);
    // The safety net above saw the worker's connections (so it would have stopped others).
    expect(connected).toContain('127.0.0.2');
    await target.close();
    await redirector.close();
  });
});
