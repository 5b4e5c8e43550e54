/** A message's subject and its two bodies, the plain text one first in importance. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The reset mail: the link, how long it lives, and what to do if nobody asked. */
export function passwordResetMail(input: {
  name: string;
  email: string;
  link: string;
  minutes: number;
}): RenderedMail {
  const paragraphs = [
    `Hello ${input.name},`,
    `Someone asked to reset the password of the ERP account ${input.email}. To choose a new password, open this link within ${input.minutes} minutes; it works once:`,
    LINK,
    'Setting a new password signs the account out everywhere.',
    'If you did not ask, ignore this message: your password stays as it is.',
  ];
  return {
    subject: 'Reset your ERP password',
    text: textBody(paragraphs, input.link),
    html: htmlBody('Reset your ERP password', paragraphs, input.link, 'Choose a new password'),
  };
}

/** The invitation: who invited whom to which organisation, and the link to set a password. */
export function invitationMail(input: {
  name: string;
  email: string;
  tenantName: string;
  inviterName: string | null;
  link: string;
  days: number;
}): RenderedMail {
  const who = input.inviterName ?? 'An administrator';
  const paragraphs = [
    `Hello ${input.name},`,
    `${who} invited you to ${input.tenantName} on ERP. To join, open this link within ${input.days} days and sign in to your account, or choose a password if you have none; it works once:`,
    LINK,
    `You will log in with ${input.email}. Nothing changes until you accept; if you did not expect this invitation, ignore this message.`,
    `If the link has expired, ask ${who === 'An administrator' ? 'an administrator' : who} to invite you again.`,
  ];
  const subject = `${who} invited you to ${input.tenantName} on ERP`;
  return {
    subject,
    text: textBody(paragraphs, input.link),
    html: htmlBody(subject, paragraphs, input.link, 'Accept the invitation'),
  };
}

/** Where the link goes among the paragraphs. */
const LINK = '\0link';

function textBody(paragraphs: string[], link: string): string {
  return `${paragraphs.map((p) => (p === LINK ? link : p)).join('\n\n')}\n`;
}

function htmlBody(title: string, paragraphs: string[], link: string, action: string): string {
  const href = escapeHtml(link);
  const body = paragraphs
    .map((p) =>
      p === LINK
        ? `<p><a href="${href}" style="display:inline-block;padding:10px 16px;background:#1f4fd1;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(action)}</a></p>\n<p style="font-size:13px;color:#555">Or copy this address into your browser: ${href}</p>`
        : `<p>${escapeHtml(p)}</p>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#111">
${body}
</body>
</html>
`;
}

/** Names come from people (a user's name, a tenant's): never markup in the HTML body. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}
