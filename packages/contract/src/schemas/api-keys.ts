import { z } from '@hono/zod-openapi';
import { RightSchema } from '../modules';
import { TimestampSchema, UuidSchema } from './common';

export const API_KEY_MAX_LIFETIME_DAYS = 366;

const ScopesSchema = z
  .array(RightSchema)
  .min(1)
  .max(32)
  .refine((s) => new Set(s).size === s.length, 'scopes must not repeat')
  .openapi({ example: ['sales:read', 'webhooks'] });

export const ApiKeySchema = z
  .object({
    id: UuidSchema,
    name: z.string(),
    prefix: z.string().openapi({
      description: 'Public lookup id, shown in lists and logs.',
      example: 'k7Qm2xYp9a',
    }),
    scopes: z.array(RightSchema),
    expires_at: TimestampSchema,
    created_at: TimestampSchema,
    last_used_at: TimestampSchema.nullable(),
    revoked_at: TimestampSchema.nullable(),
    rate_limit_per_minute: z
      .number()
      .int()
      .openapi({ description: 'Requests per minute allowed to this key.' }),
    holder_id: UuidSchema.openapi({
      description: 'The admin who created the key; it acts with their rights.',
    }),
  })
  .openapi('ApiKey');

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().openapi({
    description: 'The full key. Shown once: only a hash is kept.',
    example: 'service_live_k7Qm2xYp9a_4nV8...',
  }),
}).openapi('CreatedApiKey');

export const CreateApiKeyBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    scopes: ScopesSchema,
    expires_at: TimestampSchema.openapi({
      description: 'Mandatory; in the future and at most one year ahead.',
    }),
    rate_limit_per_minute: z.number().int().min(1).max(1_000_000).optional().openapi({
      description:
        "This key's budget per minute (default 600); the tenant's ceiling still applies.",
    }),
  })
  .openapi('CreateApiKeyRequest');

export const RollApiKeyBodySchema = z
  .object({
    expire_previous_in_hours: z
      .number()
      .int()
      .min(0)
      .max(168)
      .openapi({ description: 'Grace period of the old key (0 = revoked now).' }),
  })
  .openapi('RollApiKeyRequest');
