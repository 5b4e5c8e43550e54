import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, defaultLogFormat, type LogLevel } from './index';

/** A logger writing JSON lines into an array (pino's destination), as production writes stdout. */
function captured(level: LogLevel = 'debug') {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger(level, 'portal', { destination }), lines };
}

describe('createLogger', () => {
  it('writes one JSON line with the fields every app shares, then the caller’s', () => {
    const { logger, lines } = captured();
    logger.info('portal listening', { url: 'http://127.0.0.1:3000' });
    expect(lines).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        level: 'info',
        app: 'portal',
        pid: process.pid,
        hostname: expect.any(String),
        message: 'portal listening',
        url: 'http://127.0.0.1:3000',
      },
    ]);
  });

  it('gives each line its own fields: nothing carries over to the next line', () => {
    const { logger, lines } = captured();
    logger.info('portal listening', { url: 'http://127.0.0.1:3000' });
    logger.info('shutting down', { signal: 'SIGTERM' });
    logger.info('bare');
    expect(lines[1]).not.toHaveProperty('url');
    expect(lines[2]).not.toHaveProperty('url');
    expect(lines[2]).not.toHaveProperty('signal');
  });

  it('keeps the levels at and above its own, and nothing when silent', () => {
    const { logger, lines } = captured('warn');
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e', { code: 'x' });
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'w'],
      ['error', 'e'],
    ]);
    const silent = captured('silent');
    silent.logger.error('never');
    expect(silent.lines).toEqual([]);
  });

  it('redacts secrets by path: at the top, one level down and in headers', () => {
    const { logger, lines } = captured();
    logger.warn('careless caller', {
      request_id: 'req-1',
      password: 'correct horse battery staple',
      refresh_token: 'rt_0123456789',
      body: { email: 'a@b.test', password: 'hunter2-hunter2', client_secret: 'cs_abcdef' },
      headers: {
        authorization: 'Bearer service_live_abc_def',
        'x-api-key': 'landing-sync-key-0123456789abcdef',
        cookie: 'erp_refresh=rt_secret',
        'content-type': 'application/json',
      },
    });
    const line = lines[0]!;
    expect(line).toMatchObject({
      request_id: 'req-1',
      password: '[redacted]',
      refresh_token: '[redacted]',
      body: { email: 'a@b.test', password: '[redacted]', client_secret: '[redacted]' },
      headers: {
        authorization: '[redacted]',
        'x-api-key': '[redacted]',
        cookie: '[redacted]',
        'content-type': 'application/json',
      },
    });
    const text = JSON.stringify(lines);
    for (const secret of [
      'horse',
      'rt_0123',
      'hunter2',
      'cs_abc',
      'service_live',
      'landing-sync',
      'rt_secret',
    ])
      expect(text).not.toContain(secret);
  });

  it('is JSON outside development and coloured lines in it, unless chosen', () => {
    expect(defaultLogFormat('production')).toBe('json');
    expect(defaultLogFormat('test')).toBe('json');
    expect(defaultLogFormat('development')).toBe('pretty');
    expect(defaultLogFormat('development', 'json')).toBe('json');
  });

  it('writes readable, coloured lines in the pretty format (pnpm dev)', () => {
    const script = `
      import { createLogger } from './src/index.ts';
      const logger = createLogger('info', 'portal', { format: 'pretty' });
      logger.info('portal listening', { url: 'http://127.0.0.1:3000', password: 'hunter2-hunter2' });
    `;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: new URL('..', import.meta.url).pathname,
        env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '1' },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(run.stderr).toBe('');
    const line = run.stdout.trim();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts every colour sequence.
    const plain = line.replace(/\u001b\[[0-9;]*m/g, '');
    expect(plain).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: portal listening {"url":"http:\/\/127\.0\.0\.1:3000","password":"\[redacted\]"}$/,
    );
    expect(line).not.toBe(plain);
    // A process of its own (tsx loads the sources): seconds on a loaded 2-core machine.
  }, 30_000);
});
