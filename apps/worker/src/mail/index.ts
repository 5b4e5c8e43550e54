export { createMailer, type Mailer, type OutgoingMail } from './mailer';
export { type PasswordLinkDeps, passwordLinkHandlers } from './password-links';
