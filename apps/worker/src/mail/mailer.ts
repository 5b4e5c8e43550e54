import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@erp/logger';
import nodemailer from 'nodemailer';

/** One message, both bodies; `link` is what development prints (it holds the token). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What the message is for, in logs (`password_reset`, `invitation`). */
  kind: string;
  /** Whom it is for, in logs (an id, not the address: the account's, or the invitation's). */
  userId: string;
  link: string;
}

export interface Mailer {
  /** How messages leave: `smtp`, `files` (development) or `none` (production without SMTP). */
  readonly mode: 'smtp' | 'files' | 'none';
  /** Sends (or writes) one message; throws when it could not, so the job is retried. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  /** Where messages are written when there is no SMTP server (development); undefined: nowhere. */
  fileDir: string | undefined;
  logger: Logger;
}

/**
 * Through SMTP with nodemailer when `SMTP_URL` is set; otherwise, in development, each message
 * is written to `fileDir` as an .eml file (both bodies; any mail client opens it) and its link
 * printed in the log, the one log line that ever holds a token.
 */
export function createMailer(options: MailerOptions): Mailer {
  const { from, logger } = options;
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      // A server that hangs must not hold a job for nodemailer's default of minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      mode: 'smtp',
      async send(mail) {
        const info = await transport.sendMail({ from, ...envelope(mail) });
        logger.info('mail sent', {
          kind: mail.kind,
          user_id: mail.userId,
          message_id: info.messageId,
        });
      },
      close: () => transport.close(),
    };
  }
  const dir = options.fileDir;
  if (dir) {
    const transport = nodemailer.createTransport({
      streamTransport: true,
      buffer: true,
      newline: 'unix',
    });
    return {
      mode: 'files',
      async send(mail) {
        const info = await transport.sendMail({ from, ...envelope(mail) });
        await mkdir(dir, { recursive: true });
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        const file = path.join(dir, `${stamp}-${mail.kind}-${randomBytes(3).toString('hex')}.eml`);
        await writeFile(file, info.message as Buffer);
        logger.info('mail written (development: no SMTP_URL)', {
          kind: mail.kind,
          to: mail.to,
          file,
          link: mail.link,
        });
      },
      close: () => transport.close(),
    };
  }
  return {
    mode: 'none',
    async send() {
      throw new Error('no mail transport: set SMTP_URL');
    },
    close() {},
  };
}

function envelope(mail: OutgoingMail) {
  return { to: mail.to, subject: mail.subject, text: mail.text, html: mail.html };
}
