import { EnvError } from '@erp/http';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../src/env';

const base = {
  DATABASE_URL: 'postgres://worker@127.0.0.1/erp',
  SECRETS_ENCRYPTION_KEY: 'worker-test-encryption-key-0123456789abcdef',
};

function lines(extra: Record<string, string>): string[] {
  try {
    parseEnv({ ...base, ...extra });
  } catch (error) {
    if (error instanceof EnvError) return error.lines;
    throw error;
  }
  return [];
}

describe('worker env: landing integration', () => {
  it('defaults: push every 5 minutes, 10 s outbound timeout, nothing configured', () => {
    const env = parseEnv(base);
    expect(env).toMatchObject({ ERP_SYNC_INTERVAL: '*/5 * * * *', OUTBOUND_TIMEOUT_MS: 10_000 });
    expect(env.LANDING_SYNC_URL).toBeUndefined();
    expect(env.PORTAL_URL).toBeUndefined();
  });

  it('accepts a full configuration; PORTAL_URL loses its trailing slash', () => {
    const env = parseEnv({
      ...base,
      LANDING_SYNC_URL: 'https://www.example.test/api/erp-sync',
      LANDING_SYNC_API_KEY: 'a'.repeat(24),
      ERP_SYNC_INTERVAL: '0 */2 * * 1-5',
      PORTAL_URL: 'https://portal.example.test:8443/',
      SAAS_INTERNAL_API_KEY: 'b'.repeat(32),
      OUTBOUND_TIMEOUT_MS: '2500',
    });
    expect(env.PORTAL_URL).toBe('https://portal.example.test:8443');
    expect(env.OUTBOUND_TIMEOUT_MS).toBe(2500);
  });

  it('one line per bad variable, naming it, never echoing its value', () => {
    const bad = lines({
      LANDING_SYNC_URL: 'ftp://files.example.test/x',
      LANDING_SYNC_API_KEY: 'short-secret-value',
      ERP_SYNC_INTERVAL: '*/5 * * *',
      PORTAL_URL: 'https://portal.example.test/api',
      SAAS_INTERNAL_API_KEY: 'another-short-secret',
      OUTBOUND_TIMEOUT_MS: 'soon',
    });
    expect(bad.map((l) => l.split(':')[0])).toEqual([
      'LANDING_SYNC_URL',
      'LANDING_SYNC_API_KEY',
      'ERP_SYNC_INTERVAL',
      'PORTAL_URL',
      'SAAS_INTERNAL_API_KEY',
      'OUTBOUND_TIMEOUT_MS',
    ]);
    const text = bad.join('\n');
    for (const value of [
      'files.example.test',
      'short-secret-value',
      'another-short-secret',
      'soon',
    ])
      expect(text).not.toContain(value);
  });

  it('a cron expression graphile-worker would refuse is refused at start-up', () => {
    expect(lines({ ERP_SYNC_INTERVAL: '61 * * * *' })).toEqual([
      expect.stringMatching(/^ERP_SYNC_INTERVAL: must be a 5-field cron expression/),
    ]);
  });
});
