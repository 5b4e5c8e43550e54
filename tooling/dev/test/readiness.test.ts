import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { describeFailures, startFailureIn, watchStart } from '../src/readiness';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A health route answering `status`. */
async function healthServer(status = 200): Promise<string> {
  const server = createServer((_req, res) => res.writeHead(status).end());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
}

/** A port nothing listens on. */
async function closedUrl(): Promise<string> {
  const url = await healthServer();
  const server = servers.pop() as Server;
  await new Promise((resolve) => server.close(resolve));
  return url;
}

const never = new Promise<never>(() => {});

describe('startFailureIn', () => {
  it('reads the line an app writes before it exits, behind turbo’s prefix and colours', () => {
    expect(
      startFailureIn(
        '@erp/landing:dev: landing: invalid configuration: LANDING_SYNC_API_KEY: must be at least 24 characters',
      ),
    ).toEqual({
      app: 'landing',
      reason: 'invalid configuration: LANDING_SYNC_API_KEY: must be at least 24 characters',
    });
    expect(
      startFailureIn(
        '\u001b[36m@erp/worker:dev: \u001b[0mworker: failed to start: connect ECONNREFUSED',
      ),
    ).toEqual({ app: 'worker', reason: 'failed to start: connect ECONNREFUSED' });
    expect(startFailureIn('@erp/portal:dev: {"level":"info","message":"portal listening"}')).toBe(
      undefined,
    );
  });
});

describe('watchStart', () => {
  it('is ready once every app answers its health URL', async () => {
    const watch = watchStart({
      apps: [
        { name: 'portal', healthUrl: await healthServer() },
        { name: 'worker', healthUrl: await healthServer() },
      ],
      exited: never,
      pollMs: 20,
    });
    expect(await watch.outcome).toEqual({ ready: true });
  });

  it('fails on an app’s own start failure, collecting the others’ for a moment', async () => {
    const watch = watchStart({
      apps: [
        { name: 'portal', healthUrl: await healthServer() },
        { name: 'landing', healthUrl: await closedUrl() },
        { name: 'worker', healthUrl: await closedUrl() },
      ],
      exited: never,
      graceMs: 200,
      pollMs: 20,
    });
    const reason = 'invalid configuration: LANDING_SYNC_API_KEY: must be at least 24 characters';
    watch.onLine(`@erp/worker:dev: worker: ${reason}`);
    watch.onLine(`@erp/landing:dev: landing: ${reason}`);
    const outcome = await watch.outcome;
    expect(outcome).toEqual({
      ready: false,
      failures: [
        { app: 'landing', reason },
        { app: 'worker', reason },
      ],
    });
    expect(outcome.ready ? '' : describeFailures(outcome.failures)).toBe(
      `landing and worker cannot start: ${reason}`,
    );
  });

  it('fails an app that does not answer in time, with its last output', async () => {
    const watch = watchStart({
      apps: [{ name: 'worker', healthUrl: await healthServer(503) }],
      exited: never,
      timeoutMs: 300,
      graceMs: 10,
      pollMs: 20,
    });
    watch.onLine('@erp/worker:dev: Error: Cannot find module ./nope');
    const outcome = await watch.outcome;
    expect(outcome.ready).toBe(false);
    expect(outcome.ready ? '' : describeFailures(outcome.failures)).toMatch(
      /^worker cannot start: did not answer http:\/\/127\.0\.0\.1:\d+\/health within 0 s \(last output: Error: Cannot find module \.\/nope\)$/,
    );
  });

  it('fails the apps still silent when turbo exits', async () => {
    const watch = watchStart({
      apps: [{ name: 'portal', healthUrl: await closedUrl() }],
      exited: Promise.resolve(1),
      graceMs: 10,
      pollMs: 20,
    });
    expect(await watch.outcome).toEqual({
      ready: false,
      failures: [{ app: 'portal', reason: 'exited before answering' }],
    });
  });

  it('tells different reasons apart in its one line', () => {
    expect(
      describeFailures([
        { app: 'portal', reason: 'a' },
        { app: 'landing', reason: 'b' },
        { app: 'worker', reason: 'a' },
      ]),
    ).toBe('portal and worker cannot start: a; landing cannot start: b');
  });
});
