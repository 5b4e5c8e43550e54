import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it, decoded enough to assert on. */
export interface CapturedMail {
  /** The envelope's sender and recipients, and the authenticated user (if any). */
  from: string;
  to: string[];
  user: string | undefined;
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 that keeps what it receives.
 * With `auth`, it requires that login (in the clear: STARTTLS is off, as on a local relay).
 */
export async function startSmtpCapture(auth?: { user: string; pass: string }) {
  const received: CapturedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(login, _session, callback) {
      if (auth && login.username === auth.user && login.password === auth.pass) {
        callback(null, { user: login.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom;
        received.push({
          ...parseMail(raw),
          from: from ? from.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const credentials = auth
    ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@`
    : '';
  return {
    port,
    url: `smtp://${credentials}127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Headers, and the text and HTML parts of a (multipart/alternative) message. */
function parseMail(raw: string) {
  const { headers, body } = splitEntity(raw);
  const parts: Record<string, string> = {};
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  const entities = boundary
    ? body.split(`--${boundary}`).slice(1, -1).map(splitEntity)
    : [{ headers, body }];
  for (const part of entities) {
    const type = (part.headers['content-type'] ?? 'text/plain').split(';')[0]!.trim();
    parts[type] = decodeBody(part.body, part.headers['content-transfer-encoding']);
  }
  return {
    headers,
    subject: decodeWords(headers.subject ?? ''),
    text: parts['text/plain'] ?? '',
    html: parts['text/html'] ?? '',
  };
}

function splitEntity(entity: string) {
  const normalised = entity.replace(/\r\n/g, '\n').replace(/^\n/, '');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: end === -1 ? '' : normalised.slice(end + 2) };
}

function decodeBody(body: string, encoding = '7bit'): string {
  if (/base64/i.test(encoding)) return Buffer.from(body, 'base64').toString('utf8');
  if (/quoted-printable/i.test(encoding)) return decodeQuotedPrintable(body);
  return body;
}

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? /^[0-9A-F]{2}/i.exec(joined.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(Number.parseInt(hex[0], 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) of a header. */
function decodeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QB])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

/** The link to the console in a message's text, and its token. */
export function linkIn(mail: CapturedMail): { url: URL; token: string } {
  const found = /https?:\/\/\S+\?token=\S+/.exec(mail.text)?.[0];
  if (!found) throw new Error(`no link in the message:\n${mail.text}`);
  const url = new URL(found);
  return { url, token: url.searchParams.get('token') ?? '' };
}
