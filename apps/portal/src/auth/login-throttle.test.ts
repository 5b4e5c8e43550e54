import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import * as argon2 from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestPortal, PASSWORD } from '../../test/harness';
import { buildApp } from '../app';

// Counts password verifications (the real argon2 still runs): a refused attempt must cost none.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, verify: vi.fn(real.verify) };
});
const verifications = () => vi.mocked(argon2.verify).mock.calls.length;

// SPEC §4: failures only, 10 per (e-mail, address) pair, 100 per address, sliding 15 minutes.
const PER_PAIR = 10;
const PER_ADDRESS = 100;
const WINDOW_S = 15 * 60;

let portal: Awaited<ReturnType<typeof createTestPortal>>;
beforeAll(async () => {
  portal = await createTestPortal(); // TRUST_PROXY: addresses come from X-Forwarded-For
});
afterAll(() => portal.tdb.close());

/** One login attempt from `address`. */
const attempt = (email: string, password: string, address: string) =>
  portal
    .post('/api/v1/auth/login', { email, password }, { 'x-forwarded-for': address })
    .then(portal.json);

async function fail(email: string, address: string, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++)
    statuses.push((await attempt(email, `guess-${i}`, address)).status);
  return statuses;
}

const repeat = <T>(value: T, times: number): T[] => Array<T>(times).fill(value);

describe('login throttle', () => {
  it("the owner still logs in from their address after a stranger's 50 failures", async () => {
    const owner = await portal.provisionTenant();
    expect(await fail(owner.adminEmail, '203.0.113.50', 50)).toEqual([
      ...repeat(401, PER_PAIR),
      ...repeat(429, 50 - PER_PAIR),
    ]);
    expect((await attempt(owner.adminEmail, PASSWORD, '198.51.100.7')).status).toBe(200);
    // Nor is the owner's own typo refused: it is the owner's first failure.
    expect((await attempt(owner.adminEmail, 'typo', '198.51.100.7')).status).toBe(401);
  });

  it('refuses the 11th attempt of a pair with 429 and Retry-After, the right password too, without verifying it', async () => {
    const victim = await portal.provisionTenant();
    expect(await fail(victim.adminEmail, '203.0.113.11', PER_PAIR)).toEqual(repeat(401, PER_PAIR));
    const before = verifications();
    const refused = await attempt(victim.adminEmail, PASSWORD, '203.0.113.11');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'limite_depassee' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(WINDOW_S - 60);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
    expect(refused.body.params.retry_after).toBe(retryAfter);
    expect((await attempt(victim.adminEmail, 'another guess', '203.0.113.11')).status).toBe(429);
    expect(verifications()).toBe(before);
  });

  it('never counts successes: 30 in a row all pass, and the pair keeps its 10 failures', async () => {
    const user = await portal.provisionTenant();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await attempt(user.adminEmail, PASSWORD, '198.51.100.30')).status);
    expect(statuses).toEqual(repeat(200, 30));
    expect(await fail(user.adminEmail, '198.51.100.30', PER_PAIR + 1)).toEqual([
      ...repeat(401, PER_PAIR),
      429,
    ]);
  });

  it("a success clears its pair's failures", async () => {
    const user = await portal.provisionTenant();
    expect(await fail(user.adminEmail, '198.51.100.31', PER_PAIR - 1)).toEqual(
      repeat(401, PER_PAIR - 1),
    );
    expect((await attempt(user.adminEmail, PASSWORD, '198.51.100.31')).status).toBe(200);
    expect(await fail(user.adminEmail, '198.51.100.31', PER_PAIR + 1)).toEqual([
      ...repeat(401, PER_PAIR),
      429,
    ]);
  });

  it('refuses an address after 100 failures across e-mails; another address is unaffected', async () => {
    const user = await portal.provisionTenant();
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS; i++)
      statuses.push(
        (await attempt(`sprayed-${i}@nowhere.test`, 'Winter2026!', '203.0.113.100')).status,
      );
    expect(statuses).toEqual(repeat(401, PER_ADDRESS));
    const refused = await attempt(user.adminEmail, PASSWORD, '203.0.113.100');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(WINDOW_S - 60);
    expect((await attempt(user.adminEmail, PASSWORD, '203.0.113.101')).status).toBe(200);
    // 100 argon2 verifications in a row: seconds alone, much more while every suite runs.
  }, 120_000);

  it('is exact under concurrency: 30 guesses at once are 10 verified and 20 refused', async () => {
    const victim = await portal.provisionTenant();
    const before = verifications();
    const all = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        attempt(victim.adminEmail, `burst-${i}`, '203.0.113.30'),
      ),
    );
    expect(all.filter((r) => r.status === 401)).toHaveLength(PER_PAIR);
    expect(all.filter((r) => r.status === 429)).toHaveLength(30 - PER_PAIR);
    expect(verifications() - before).toBe(PER_PAIR);
  });

  it('lets a script log in 20 times at once from one address', async () => {
    const user = await portal.provisionTenant();
    const all = await Promise.all(
      Array.from({ length: 20 }, () => attempt(user.adminEmail, PASSWORD, '198.51.100.20')),
    );
    expect(all.map((r) => r.status)).toEqual(repeat(200, 20));
  });

  it('counts IPv6 clients by /64 and IPv4-mapped clients as IPv4', async () => {
    const victim = await portal.provisionTenant();
    const statuses: number[] = [];
    for (let i = 1; i <= PER_PAIR + 1; i++)
      statuses.push(
        (await attempt(victim.adminEmail, 'guess', `2001:db8:1:2::${i.toString(16)}`)).status,
      );
    expect(statuses).toEqual([...repeat(401, PER_PAIR), 429]);
    expect((await attempt(victim.adminEmail, PASSWORD, '2001:db8:1:2:ffff::1')).status).toBe(429);
    expect((await attempt(victim.adminEmail, PASSWORD, '2001:db8:1:3::1')).status).toBe(200);

    const other = await portal.provisionTenant();
    expect(await fail(other.adminEmail, '203.0.113.66', PER_PAIR)).toEqual(repeat(401, PER_PAIR));
    expect((await attempt(other.adminEmail, PASSWORD, '::ffff:203.0.113.66')).status).toBe(429);
  });
});

describe('login throttle over real sockets (TRUST_PROXY off)', () => {
  let url: string;
  let server: ReturnType<typeof serve>;
  beforeAll(async () => {
    const app = buildApp({ ...portal.deps, env: { ...portal.deps.env, TRUST_PROXY: false } });
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A login from a given loopback source address (Linux routes all of 127/8 to lo). */
  function loginFrom(localAddress: string, body: object, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
      const req = http.request(`${url}/api/v1/auth/login`, {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', ...headers },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }),
        );
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  }

  it("a stranger at 127.0.0.2 cannot lock out the owner at 127.0.0.1, even naming the owner's address", async () => {
    const owner = await portal.provisionTenant();
    const statuses: number[] = [];
    for (let i = 0; i <= PER_PAIR; i++) {
      const res = await loginFrom(
        '127.0.0.2',
        { email: owner.adminEmail, password: `guess-${i}` },
        // Without TRUST_PROXY, X-Forwarded-For is the client's word: ignored.
        { 'x-forwarded-for': '127.0.0.1' },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...repeat(401, PER_PAIR), 429]);
    const ok = await loginFrom('127.0.0.1', { email: owner.adminEmail, password: PASSWORD });
    expect(ok.status).toBe(200);
    const still = await loginFrom('127.0.0.2', { email: owner.adminEmail, password: PASSWORD });
    expect(still.status).toBe(429);
    expect(Number(still.retryAfter)).toBeGreaterThan(WINDOW_S - 60);
  });
});
