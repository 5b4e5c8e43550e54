export { createMailer, type Mailer, type OutgoingMail } from './mailer';
export { type PasswordLinkDeps, passwordLinkTasks } from './password-links';
