import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPasswordLinkToken, jobs } from '@erp/contract';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningWorker } from '../src/worker';
import { createTenant, runWorker, waitFor } from './harness';
import { addJob, captureLogger, jobsOf, NO_TICK, retryNow } from './landing-harness';
import { linkIn, startSmtpCapture } from './smtp-capture';

const SMTP_USER = 'mailer';
const SMTP_PASS = 'smtp-secret-pass-0123';
const CONSOLE = 'https://console.example.test';
const FROM = 'ERP <no-reply@example.test>';

let database: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let worker: RunningWorker;
const log = captureLogger();

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpCapture({ user: SMTP_USER, pass: SMTP_PASS });
  worker = await runWorker(
    database,
    { ERP_SYNC_INTERVAL: NO_TICK, SMTP_URL: smtp.url, MAIL_FROM: FROM, CONSOLE_URL: CONSOLE },
    { logger: log.logger },
  );
});
afterAll(async () => {
  await worker?.stop();
  await smtp?.close();
  await database?.close();
});

async function createUser(name = 'Ada Lovelace', withPassword = true) {
  const email = `ada-${randomBytes(4).toString('hex')}@example.test`;
  const { rows } = await database.pool.query<{ id: string }>(
    'INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING id',
    [email, name, withPassword ? '$argon2id$v=19$m=19456,t=2,p=1$placeholder' : null],
  );
  return { id: rows[0]!.id, email };
}

async function tokensOf(userId: string) {
  const { rows } = await database.pool.query<{
    purpose: string;
    tenant_id: string | null;
    token_hash: Buffer;
    created_at: Date;
    expires_at: Date;
  }>('SELECT * FROM password_tokens WHERE user_id = $1 ORDER BY created_at', [userId]);
  return rows;
}

const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));
const idle = (task: string) =>
  waitFor(async () => (await jobsOf(database, task)).length === 0, 15_000);

describe('mail_password_reset', () => {
  it('mails a link to the console through SMTP (logged in), the token stored only as its hash', async () => {
    const user = await createUser();
    await addJob(database, jobs.mailPasswordReset, { email: user.email.toUpperCase() });
    const mail = await waitFor(() => mailsTo(user.email)[0]);
    expect(mail.user).toBe(SMTP_USER);
    expect(mail.from).toBe('no-reply@example.test');
    expect(mail.headers.from).toBe(FROM);
    expect(mail.subject).toBe('Reset your ERP password');
    expect(mail.headers['content-type']).toMatch(/^multipart\/alternative/);
    const { url, token } = linkIn(mail);
    expect(`${url.origin}${url.pathname}`).toBe(`${CONSOLE}/reset-password`);
    expect(token).toMatch(/^pwt_[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain('within 30 minutes');
    expect(mail.html).toContain(`href="${CONSOLE}/reset-password?token=${token}"`);

    const [stored] = await tokensOf(user.id);
    expect(stored!.purpose).toBe('password_reset');
    expect(stored!.token_hash.equals(hashPasswordLinkToken(token))).toBe(true);
    const lifetime = stored!.expires_at.getTime() - stored!.created_at.getTime();
    expect(Math.abs(lifetime - 30 * 60_000)).toBeLessThan(5_000);
    // Neither the token nor the SMTP password reach the log; the sending is logged by ids.
    await idle('mail_password_reset');
    expect(log.text()).not.toContain(token);
    expect(log.text()).not.toContain(SMTP_PASS);
    expect(log.lines.some((l) => l.includes('"mail sent"') && l.includes(user.id))).toBe(true);
  });

  it('sends nothing for an e-mail no account uses', async () => {
    const before = smtp.received.length;
    await addJob(database, jobs.mailPasswordReset, { email: 'nobody@nowhere.test' });
    await idle('mail_password_reset');
    expect(smtp.received.length).toBe(before);
  });

  it('retries while the SMTP server is down, then sends; the request is audited once in each tenant of the account', async () => {
    const user = await createUser();
    const tenants = [await createTenant(database), await createTenant(database)];
    for (const tenantId of tenants)
      await database.pool.query(
        `INSERT INTO memberships (tenant_id, user_id, roles) VALUES ($1, $2, '{sales:reader}')`,
        [tenantId, user.id],
      );
    const down = await startSmtpCapture();
    const port = down.port;
    await down.close();
    // The shared worker must not take this job: it is stopped for the time of the test.
    await worker.stop();
    const retrying = await runWorker(
      database,
      {
        ERP_SYNC_INTERVAL: NO_TICK,
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: FROM,
        CONSOLE_URL: CONSOLE,
      },
      { logger: captureLogger().logger },
    );
    try {
      await addJob(
        database,
        jobs.mailPasswordReset,
        { email: user.email, address: '192.0.2.44' },
        { maxAttempts: 8 },
      );
      const failed = await waitFor(async () => {
        const [job] = await jobsOf(database, 'mail_password_reset');
        return job && job.attempts >= 1 && job.last_error ? job : undefined;
      });
      expect(failed.last_error).toMatch(/ECONNREFUSED/);
    } finally {
      await retrying.stop();
      worker = await runWorker(
        database,
        { ERP_SYNC_INTERVAL: NO_TICK, SMTP_URL: smtp.url, MAIL_FROM: FROM, CONSOLE_URL: CONSOLE },
        { logger: log.logger },
      );
    }
    await retryNow(database, 'mail_password_reset');
    const mail = await waitFor(() => mailsTo(user.email)[0], 15_000);
    const { token } = linkIn(mail);
    expect(token).toMatch(/^pwt_/);
    // Two runs minted a link each; the request is one row per tenant, never the token.
    expect((await tokensOf(user.id)).length).toBe(2);
    const { rows } = await database.pool.query(
      `SELECT tenant_id, action, actor_id, target_type, address, details FROM audit_log
       WHERE target_id = $1 ORDER BY tenant_id`,
      [user.id],
    );
    expect(rows).toEqual(
      [...tenants].sort().map((tenantId) => ({
        tenant_id: tenantId,
        action: 'password_reset.requested',
        actor_id: null,
        target_type: 'user',
        address: '192.0.2.44',
        details: { email: user.email, job_id: expect.any(String) },
      })),
    );
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});

describe('mail_invitation', () => {
  async function invite(tenantId: string, email: string, invitedBy: string | null) {
    const { rows } = await database.pool.query<{ id: string }>(
      `INSERT INTO invitations (tenant_id, email, name, roles, invited_by)
       VALUES ($1, $2, 'Linus', '{sales:reader}', $3) RETURNING id`,
      [tenantId, email, invitedBy],
    );
    return rows[0]!.id;
  }
  const linkOf = async (id: string) =>
    (
      await database.pool.query<{ token_hash: Buffer | null; token_expires_at: Date | null }>(
        'SELECT token_hash, token_expires_at FROM invitations WHERE id = $1',
        [id],
      )
    ).rows[0];

  it('invites to the tenant by the inviter’s name, names escaped in HTML, link valid 7 days', async () => {
    const tenantId = await createTenant(database);
    await database.pool.query(`UPDATE tenants SET name = 'Zoé & <b>Co</b>' WHERE id = $1`, [
      tenantId,
    ]);
    const inviter = await createUser('Grace <Hopper>');
    const email = `linus-${randomBytes(4).toString('hex')}@example.test`;
    const id = await invite(tenantId, email, inviter.id);
    const queued = Date.now();
    await addJob(database, jobs.mailInvitation, { invitation_id: id });
    const mail = await waitFor(() => mailsTo(email)[0]);
    expect(mail.subject).toBe('Grace <Hopper> invited you to Zoé & <b>Co</b> on ERP');
    const { url, token } = linkIn(mail);
    expect(`${url.origin}${url.pathname}`).toBe(`${CONSOLE}/invitation`);
    expect(mail.text).toContain('Grace <Hopper> invited you to Zoé & <b>Co</b> on ERP');
    expect(mail.text).toContain(`You will log in with ${email}.`);
    expect(mail.html).toContain(
      'Grace &lt;Hopper&gt; invited you to Zoé &amp; &lt;b&gt;Co&lt;/b&gt;',
    );
    expect(mail.html).not.toContain('<b>Co</b>');
    const stored = await linkOf(id);
    expect(stored!.token_hash!.equals(hashPasswordLinkToken(token))).toBe(true);
    const lifetime = stored!.token_expires_at!.getTime() - queued;
    expect(Math.abs(lifetime - 7 * 86_400_000)).toBeLessThan(30_000);
  });

  it('a second mail replaces the first link; a withdrawn invitation is not mailed', async () => {
    const tenantId = await createTenant(database);
    const email = `again-${randomBytes(4).toString('hex')}@example.test`;
    const id = await invite(tenantId, email, null);
    await addJob(database, jobs.mailInvitation, { invitation_id: id });
    const first = linkIn(await waitFor(() => mailsTo(email)[0])).token;
    await addJob(database, jobs.mailInvitation, { invitation_id: id });
    const second = linkIn(await waitFor(() => mailsTo(email)[1])).token;
    expect(second).not.toBe(first);
    expect((await linkOf(id))!.token_hash!.equals(hashPasswordLinkToken(second))).toBe(true);

    const withdrawn = await invite(tenantId, `gone-${email}`, null);
    await database.pool.query('DELETE FROM invitations WHERE id = $1', [withdrawn]);
    const before = smtp.received.length;
    await addJob(database, jobs.mailInvitation, { invitation_id: withdrawn });
    await idle('mail_invitation');
    expect(smtp.received.length).toBe(before);
  });
});

describe('without SMTP_URL', () => {
  it('development writes .eml files (both bodies) and prints the link in the log', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'erp-mail-'));
    const devLog = captureLogger();
    await worker.stop();
    const dev = await runWorker(
      database,
      { ERP_SYNC_INTERVAL: NO_TICK, NODE_ENV: 'development', MAIL_DIR: dir },
      { logger: devLog.logger },
    );
    try {
      const user = await createUser();
      await addJob(database, jobs.mailPasswordReset, { email: user.email });
      const [file] = await waitFor(async () => {
        const files = await readdir(dir);
        return files.length ? files : undefined;
      });
      expect(file).toMatch(/-password_reset-[0-9a-f]+\.eml$/);
      const eml = await readFile(path.join(dir, file!), 'utf8');
      expect(eml).toContain('Content-Type: text/plain');
      expect(eml).toContain('Content-Type: text/html');
      expect(eml).toContain(`To: ${user.email}`);
      const line = await waitFor(() => devLog.lines.find((l) => l.includes('mail written')));
      const logged = JSON.parse(line) as { link: string; file: string };
      expect(logged.file).toBe(path.join(dir, file!));
      expect(logged.link).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=pwt_/);
      const token = new URL(logged.link).searchParams.get('token')!;
      const [stored] = await tokensOf(user.id);
      expect(stored!.token_hash.equals(hashPasswordLinkToken(token))).toBe(true);
      expect(devLog.text()).toContain('"mail":"files"');
    } finally {
      await dev.stop();
      await rm(dir, { recursive: true, force: true });
      worker = await runWorker(
        database,
        { ERP_SYNC_INTERVAL: NO_TICK, SMTP_URL: smtp.url, MAIL_FROM: FROM, CONSOLE_URL: CONSOLE },
        { logger: log.logger },
      );
    }
  });

  it('production says so at start, and its mail jobs fail (to be retried) rather than vanish', async () => {
    const prodLog = captureLogger();
    await worker.stop();
    const prod = await runWorker(
      database,
      { ERP_SYNC_INTERVAL: NO_TICK, NODE_ENV: 'production' },
      { logger: prodLog.logger },
    );
    try {
      expect(prodLog.text()).toContain('SMTP_URL is not set');
      const user = await createUser();
      await addJob(database, jobs.mailPasswordReset, { email: user.email });
      const failed = await waitFor(async () => {
        const [job] = await jobsOf(database, 'mail_password_reset');
        return job?.last_error ? job : undefined;
      });
      expect(failed.last_error).toContain('no mail transport: set SMTP_URL');
    } finally {
      await prod.stop();
      await database.pool.query(
        `DELETE FROM graphile_worker._private_jobs
         WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'mail_password_reset')`,
      );
      worker = await runWorker(
        database,
        { ERP_SYNC_INTERVAL: NO_TICK, SMTP_URL: smtp.url, MAIL_FROM: FROM, CONSOLE_URL: CONSOLE },
        { logger: log.logger },
      );
    }
  });
});
