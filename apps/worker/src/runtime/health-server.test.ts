import { afterEach, describe, expect, it } from 'vitest';
import { type HealthServer, startHealthServer } from './health-server';

let server: HealthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(lastBeat: Date | null, now = new Date('2026-01-01T00:01:00Z')) {
  server = await startHealthServer({
    port: 0,
    host: '127.0.0.1',
    lastBeat: () => lastBeat,
    deadAfterMs: 30_000,
    now: () => now,
  });
  return `http://127.0.0.1:${server.port}`;
}

describe('worker health server', () => {
  it('answers 200 while the last heartbeat is recent', async () => {
    const base = await serve(new Date('2026-01-01T00:00:45Z'));
    const response = await fetch(`${base}/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      status: 'ok',
      last_heartbeat: '2026-01-01T00:00:45.000Z',
      age_ms: 15_000,
    });
  });

  it('answers 503 once the heartbeat is as old as the dead-after delay', async () => {
    const base = await serve(new Date('2026-01-01T00:00:30Z'));
    const response = await fetch(`${base}/health`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: 'stale', age_ms: 30_000 });
  });

  it('answers 503 before the first heartbeat', async () => {
    const base = await serve(null);
    const response = await fetch(`${base}/health`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'stale', last_heartbeat: null, age_ms: null });
  });

  it('answers HEAD without a body and 404 elsewhere', async () => {
    const base = await serve(new Date('2026-01-01T00:00:59Z'));
    const head = await fetch(`${base}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const unknown = await fetch(`${base}/healthz`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'introuvable', params: {} });
    expect((await fetch(`${base}/health`, { method: 'POST' })).status).toBe(404);
  });
});
