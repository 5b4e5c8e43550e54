import { EnvError } from '@erp/http';
import { describe, expect, it } from 'vitest';
import { parseEnv } from './env';

describe('parseEnv', () => {
  it('applies defaults', () => {
    const env = parseEnv({ DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db' });
    expect(env.PORTAL_PORT).toBe(3000);
    expect(env.PUBLIC_ENDPOINTS_ENABLED).toBe(true);
    expect(env.API_KEY_RATE_LIMIT_PER_MINUTE).toBe(600);
    expect(env.WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
  });

  it('reads WEBHOOK_ALLOW_PRIVATE_URLS as a boolean string', () => {
    const url = 'postgres://u:p@127.0.0.1:5432/db';
    expect(parseEnv({ DATABASE_URL: url, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })).toMatchObject({
      WEBHOOK_ALLOW_PRIVATE_URLS: true,
    });
    expect(() => parseEnv({ DATABASE_URL: url, WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_URLS/,
    );
  });

  it('reads PLATFORM_TENANT as an optional tenant slug', () => {
    const url = 'postgres://u:p@127.0.0.1:5432/db';
    expect(parseEnv({ DATABASE_URL: url }).PLATFORM_TENANT).toBeUndefined();
    expect(parseEnv({ DATABASE_URL: url, PLATFORM_TENANT: 'acme-ops' }).PLATFORM_TENANT).toBe(
      'acme-ops',
    );
    expect(() => parseEnv({ DATABASE_URL: url, PLATFORM_TENANT: 'Acme Ops' })).toThrow(
      /^PLATFORM_TENANT: /,
    );
  });

  it('reads DATABASE_POOLER as none, session or transaction (none by default)', () => {
    const url = 'postgres://u:p@127.0.0.1:5432/db';
    expect(parseEnv({ DATABASE_URL: url }).DATABASE_POOLER).toBe('none');
    expect(parseEnv({ DATABASE_URL: url, DATABASE_POOLER: 'transaction' }).DATABASE_POOLER).toBe(
      'transaction',
    );
    expect(() => parseEnv({ DATABASE_URL: url, DATABASE_POOLER: 'pgbouncer' })).toThrow(
      /^DATABASE_POOLER: /,
    );
  });

  it('names every bad variable on its own line and never echoes values', () => {
    try {
      parseEnv({
        DATABASE_URL: 'mysql://secret-value',
        PORTAL_PORT: 'abc',
        PUBLIC_ENDPOINTS_ENABLED: 'yes',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const lines = (error as EnvError).lines;
      expect(lines.map((l) => l.split(':')[0]).sort()).toEqual([
        'DATABASE_URL',
        'PORTAL_PORT',
        'PUBLIC_ENDPOINTS_ENABLED',
      ]);
      expect((error as Error).message).not.toContain('secret-value');
    }
  });

  it('requires the secrets in production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', DATABASE_URL: 'postgres://h/db' })).toThrow(
      /JWT_PRIVATE_KEY: required in production/,
    );
  });
});
