import { createRoute } from '@hono/zod-openapi';
import { errorResponses } from '../errors';
import {
  AcceptedInvitationSchema,
  AcceptInvitationRequestSchema,
  InvitationSchema,
  InvitationTokenRequestSchema,
  PasswordResetAcceptedSchema,
  PasswordResetRequestSchema,
  PasswordSetRequestSchema,
  PasswordSetSchema,
} from '../schemas/password-links';
import { jsonBody, jsonResponse, SESSION } from './helpers';

export const requestPasswordReset = createRoute({
  operationId: 'requestPasswordReset',
  method: 'post',
  path: '/api/v1/auth/password-reset',
  tags: ['Authentication'],
  summary: 'Ask for a password reset link by e-mail',
  description:
    'Always 202 with the same body and in the same time, whether or not an account uses the e-mail: the answer tells nobody who has an account. When one does, it receives a link to the console (`/reset-password?token=…`) that works once, within 30 minutes. Throttled per e-mail (5 an hour) and per client address (20 an hour): 429 `limite_depassee` with `Retry-After`.',
  request: { body: jsonBody(PasswordResetRequestSchema) },
  responses: {
    202: jsonResponse(
      PasswordResetAcceptedSchema,
      'Accepted; a link is mailed if the account exists.',
    ),
    ...errorResponses('requete_invalide', 'limite_depassee'),
  },
});

export const confirmPasswordReset = createRoute({
  operationId: 'confirmPasswordReset',
  method: 'post',
  path: '/api/v1/auth/password-reset/confirm',
  tags: ['Authentication'],
  summary: 'Set a password with the token of a reset link',
  description:
    'Sets the password of the link’s account and ends every session of that account (all its refresh tokens are revoked); every other link of the account stops working too. A link works once: a second use, an expired or an unknown token is 400 `lien_invalide` with `params.reason` (`used`, `expired`, `unknown`).',
  request: { body: jsonBody(PasswordSetRequestSchema) },
  responses: {
    200: jsonResponse(PasswordSetSchema, 'The password is set; log in with it.'),
    ...errorResponses('requete_invalide', 'lien_invalide'),
  },
});

const invitationsTag = { tags: ['Authentication'] };

export const lookupInvitation = createRoute({
  operationId: 'lookupInvitation',
  ...invitationsTag,
  method: 'post',
  path: '/api/v1/auth/invitations/lookup',
  summary: 'Read the invitation a link carries',
  description:
    'For the invitation page: the tenant, the e-mail, and how to accept (`account`). Only the holder of the link (the e-mail’s inbox) learns whether that e-mail has an account. An unknown, used or expired link: 400 `lien_invalide` with `params.reason`.',
  request: { body: jsonBody(InvitationTokenRequestSchema) },
  responses: {
    200: jsonResponse(InvitationSchema, 'The invitation.'),
    ...errorResponses('requete_invalide', 'lien_invalide'),
  },
});

export const acceptInvitation = createRoute({
  operationId: 'acceptInvitation',
  ...invitationsTag,
  method: 'post',
  path: '/api/v1/auth/invitations/accept',
  summary: 'Accept an invitation by creating an account',
  description:
    'For an e-mail without a password: sets the account’s first password (creating the account when there is none) and makes it a member with the invitation’s roles; then log in. An e-mail whose account already has a password accepts by signing in instead (`POST /api/v1/auth/invitations/join`): 409 `conflit` with `params.reason` `account_exists`. The link works once.',
  request: { body: jsonBody(AcceptInvitationRequestSchema) },
  responses: {
    200: jsonResponse(AcceptedInvitationSchema, 'The account is a member; log in with it.'),
    ...errorResponses('requete_invalide', 'lien_invalide', 'conflit'),
  },
});

export const joinInvitation = createRoute({
  operationId: 'joinInvitation',
  ...invitationsTag,
  security: [SESSION],
  method: 'post',
  path: '/api/v1/auth/invitations/join',
  summary: 'Accept an invitation as the signed-in account',
  description:
    'The session’s account must be the one the invitation was sent to (the same e-mail), else 403 `acces_refuse` with `params.required` `invitee`. The membership is active at once. The link works once.',
  request: { body: jsonBody(InvitationTokenRequestSchema) },
  responses: {
    200: jsonResponse(AcceptedInvitationSchema, 'The account is a member of the tenant.'),
    ...errorResponses(
      'requete_invalide',
      'non_authentifie',
      'jeton_invalide',
      'lien_invalide',
      'acces_refuse',
    ),
  },
});
