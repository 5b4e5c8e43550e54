import { z } from '@hono/zod-openapi';
import { ModuleSchema, RightSchema, RoleSchema } from '../modules';
import { EmailSchema, PasswordSchema, SlugSchema, TimestampSchema, UuidSchema } from './common';

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
    refresh_token: z.string(),
  })
  .openapi('TokenPair');

export const RefreshBodySchema = z
  .object({ refresh_token: z.string().min(1).max(512) })
  .openapi('RefreshRequest');

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
    id: UuidSchema,
    email: EmailSchema,
    name: z.string(),
    roles: z.array(RoleSchema),
    created_at: TimestampSchema,
  })
  .openapi('User');

export const CreateUserBodySchema = z
  .object({
    email: EmailSchema,
    name: z.string().min(1).max(200),
    roles: z.array(RoleSchema).min(1).max(20),
    password: PasswordSchema.optional(),
  })
  .openapi('CreateUserRequest');

export const UpdateUserBodySchema = z
  .object({
    email: EmailSchema.optional(),
    name: z.string().min(1).max(200).optional(),
    roles: z.array(RoleSchema).min(1).max(20).optional(),
    password: PasswordSchema.optional(),
  })
  .openapi('UpdateUserRequest');
