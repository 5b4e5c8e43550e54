import { EnvError } from '@erp/http';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../src/env';

const base = {
  DATABASE_URL: 'postgres://worker@127.0.0.1/erp',
  SECRETS_ENCRYPTION_KEY: 'worker-test-encryption-key-0123456789abcdef',
};
const SMTP = 'smtp://mailer:s3cret-value@smtp.example.test:587';

function lines(extra: Record<string, string>): string[] {
  try {
    parseEnv({ ...base, ...extra });
  } catch (error) {
    if (error instanceof EnvError) return error.lines;
    throw error;
  }
  return [];
}

describe('worker env: mail', () => {
  it('accepts SMTP with a sender and the console’s address (its trailing slash dropped)', () => {
    const env = parseEnv({
      ...base,
      NODE_ENV: 'production',
      SMTP_URL: SMTP,
      MAIL_FROM: 'ERP <no-reply@example.test>',
      CONSOLE_URL: 'https://erp.example.test/',
    });
    expect(env.CONSOLE_URL).toBe('https://erp.example.test');
    expect(
      parseEnv({ ...base, SMTP_URL: 'smtps://smtp.example.test', MAIL_FROM: 'a@b.test' }),
    ).toBeTruthy();
  });

  it('refuses what would send wrong mail, one line per variable, never echoing a value', () => {
    expect(lines({ SMTP_URL: 'http://smtp.example.test' })).toEqual([
      'SMTP_URL: must be an smtp:// or smtps:// URL',
    ]);
    expect(lines({ SMTP_URL: SMTP })).toEqual(['MAIL_FROM: required with SMTP_URL']);
    expect(lines({ SMTP_URL: SMTP, MAIL_FROM: 'no address' })).toEqual([
      'MAIL_FROM: must be an e-mail address, or Name <address>',
    ]);
    expect(lines({ NODE_ENV: 'production', SMTP_URL: SMTP, MAIL_FROM: 'a@b.test' })).toEqual([
      'CONSOLE_URL: required with SMTP_URL in production (the links in e-mails point there)',
    ]);
    expect(lines({ NODE_ENV: 'production', MAIL_DIR: '/tmp/mail' })).toEqual([
      'MAIL_DIR: development only (production sends through SMTP_URL)',
    ]);
    expect(lines({ CONSOLE_URL: 'https://erp.example.test/console' })).toEqual([
      'CONSOLE_URL: must be an http(s) origin, without a path',
    ]);
    const all = lines({ SMTP_URL: 'ftp://mailer:s3cret-value@x' }).join('\n');
    expect(all).not.toContain('s3cret-value');
  });
});
