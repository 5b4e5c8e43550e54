import { z } from '@hono/zod-openapi';
import { EmailSchema, PasswordSchema, SlugSchema } from './common';

export const PasswordResetRequestSchema = z
  .object({ email: EmailSchema })
  .openapi('PasswordResetRequest');

export const PasswordResetAcceptedSchema = z
  .object({
    expires_in: z.number().int().openapi({
      description:
        'Seconds a link mailed for this request stays valid. The same answer whether or not an account uses the e-mail.',
      example: 1800,
    }),
  })
  .openapi('PasswordResetAccepted');

export const PasswordSetRequestSchema = z
  .object({
    token: z
      .string()
      .min(1)
      .max(200)
      .openapi({ description: 'The `token` of the link in the e-mail.' }),
    password: PasswordSchema,
  })
  .openapi('PasswordSetRequest');

export const PasswordSetSchema = z
  .object({
    email: EmailSchema.openapi({
      description: 'The account whose password was set: log in with it.',
    }),
    purpose: z.enum(['password_reset', 'invitation']),
    tenant: z.union([SlugSchema, z.null()]).openapi({
      description: 'The tenant an invitation was for (its slug); null for a password reset.',
    }),
  })
  .openapi('PasswordSet');

const InvitationTokenSchema = z
  .string()
  .min(1)
  .max(200)
  .openapi({ description: 'The `token` of the invitation link in the e-mail.' });

export const InvitationTokenRequestSchema = z
  .strictObject({ token: InvitationTokenSchema })
  .openapi('InvitationTokenRequest');

export const InvitationSchema = z
  .object({
    email: EmailSchema.openapi({ description: 'The e-mail the invitation was sent to.' }),
    name: z.string().openapi({ description: 'Whom the invitation was addressed to.' }),
    tenant: z.object({ slug: SlugSchema, name: z.string() }),
    account: z.enum(['existing', 'new']).openapi({
      description:
        '`existing`: the e-mail has an account with a password; sign in to it and accept with `POST /api/v1/auth/invitations/join`. `new`: accept by choosing a password with `POST /api/v1/auth/invitations/accept`.',
    }),
    expires_at: z.string().datetime().openapi({ description: 'When the link stops working.' }),
  })
  .openapi('Invitation');

export const AcceptInvitationRequestSchema = z
  .strictObject({
    token: InvitationTokenSchema,
    password: PasswordSchema,
    name: z.string().trim().min(1).max(200).optional().openapi({
      description: 'The name of the new account; the invitation’s by default.',
    }),
  })
  .openapi('AcceptInvitationRequest');

export const AcceptedInvitationSchema = z
  .object({
    email: EmailSchema.openapi({ description: 'The account that became a member.' }),
    tenant: SlugSchema.openapi({ description: 'The tenant it joined (its slug).' }),
  })
  .openapi('AcceptedInvitation');
