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
