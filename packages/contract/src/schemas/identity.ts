import { z } from '@hono/zod-openapi';
import { ModuleSchema, RightSchema, RoleSchema } from '../modules';
import { EmailSchema, SlugSchema, TimestampSchema, UuidSchema } from './common';

export const LoginBodySchema = z
  .object({
    email: EmailSchema,
    password: z.string().min(1).max(256),
    tenant: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: 'Slug or UUID; checks SSO.' }),
    refresh_cookie: z.boolean().optional().openapi({
      description:
        'For the portal’s own pages: the refresh token is set in the `erp_refresh` cookie (HttpOnly, Secure, SameSite=Strict, path `/api/v1/auth/refresh`) instead of the body. The request must carry the portal’s own `Origin`.',
    }),
  })
  .openapi('LoginRequest');

export const TokenPairSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z
      .number()
      .int()
      .openapi({ description: 'Seconds until the access token expires.' }),
    refresh_token: z.string().optional().openapi({
      description:
        'Absent in cookie mode (`refresh_cookie` at login, or a refresh by the cookie): the token is then in the `erp_refresh` cookie.',
    }),
  })
  .openapi('TokenPair');

const RefreshTokenSchema = z.string().min(1).max(512);

export const RefreshBodySchema = z
  .object({
    refresh_token: RefreshTokenSchema.optional().openapi({
      description: 'Omit it (or the whole body) to refresh with the `erp_refresh` cookie.',
    }),
  })
  .openapi('RefreshRequest');

export const LogoutBodySchema = z
  .object({ refresh_token: RefreshTokenSchema })
  .openapi('LogoutRequest');

/** The cookie the portal's own pages keep their refresh token in (login with `refresh_cookie`). */
export const RefreshCookieSchema = z.object({
  erp_refresh: z
    .string()
    .optional()
    .openapi({ description: 'The refresh token set by a login with `refresh_cookie`.' }),
});

export const TenantSummarySchema = z
  .object({ id: UuidSchema, slug: SlugSchema, name: z.string(), modules: z.array(ModuleSchema) })
  .openapi('TenantSummary');

export const MeSchema = z
  .object({
    user: z.object({ id: UuidSchema, email: EmailSchema, name: z.string() }),
    auth: z.enum(['session', 'api_key']),
    tenant: z.union([TenantSummarySchema, z.null()]),
    rights: z.array(RightSchema).openapi({ description: 'Effective rights in `tenant`.' }),
    memberships: z.array(z.object({ tenant: TenantSummarySchema, roles: z.array(RoleSchema) })),
  })
  .openapi('Me');

export const UserSchema = z
  .object({
    id: UuidSchema.openapi({
      description:
        'The account’s id for an active member; the invitation’s id while `status` is `invited`.',
    }),
    email: EmailSchema,
    name: z.string().openapi({
      description:
        'The name the person gave their account; while invited, the name the invitation was addressed to.',
    }),
    roles: z.array(RoleSchema),
    status: z.enum(['active', 'invited']).openapi({
      description:
        '`invited`: the invitation is waiting for the person to accept it through the mailed link; it grants nothing until then.',
    }),
    created_at: TimestampSchema,
  })
  .openapi('User');

export const CreateUserBodySchema = z
  .strictObject({
    email: EmailSchema,
    name: z.string().trim().min(1).max(200).openapi({
      description: 'Whom the invitation is addressed to; the person’s account keeps its own name.',
    }),
    roles: z.array(RoleSchema).min(1).max(20),
  })
  .openapi('CreateUserRequest');

export const UpdateUserBodySchema = z
  .strictObject({
    roles: z.array(RoleSchema).min(1).max(20),
  })
  .openapi('UpdateUserRequest');
