import { createRoute } from '@hono/zod-openapi';
import { errorResponses } from '../errors';
import {
  PasswordResetAcceptedSchema,
  PasswordResetRequestSchema,
  PasswordSetRequestSchema,
  PasswordSetSchema,
} from '../schemas/password-links';
import { jsonBody, jsonResponse } from './helpers';

export const requestPasswordReset = createRoute({
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
  method: 'post',
  path: '/api/v1/auth/password-reset/confirm',
  tags: ['Authentication'],
  summary: 'Set a password with the token of a reset or invitation link',
  description:
    'Sets the password of the link’s account and ends every session of that account (all its refresh tokens are revoked); every other link of the account stops working too. A link works once: a second use, an expired or an unknown token is 400 `lien_invalide` with `params.reason` (`used`, `expired`, `unknown`).',
  request: { body: jsonBody(PasswordSetRequestSchema) },
  responses: {
    200: jsonResponse(PasswordSetSchema, 'The password is set; log in with it.'),
    ...errorResponses('requete_invalide', 'lien_invalide'),
  },
});
