import { z } from '@hono/zod-openapi';
import { TimestampSchema, withoutCredentials } from './common';

export const SYNC_URL_MAX_LENGTH = 2000;
export const SYNC_STATUSES = ['ok', 'failed', 'skipped'] as const;

/** Absolute http(s), no credentials (the push authenticates with `X-API-Key`). */
const SyncUrlSchema = z
  .url({ protocol: /^https?$/, error: 'an absolute http(s) URL' })
  .max(SYNC_URL_MAX_LENGTH)
  .refine(
    (url) => ![...url].some((c) => c <= ' ' || c === '\u007f'),
    'must not contain spaces or control characters',
  )
  .refine(withoutCredentials, 'must not contain a user name or password');

export const SyncCountsSchema = z
  .object({ tenants: z.number().int(), plans: z.number().int(), metadata: z.number().int() })
  .openapi({ description: 'What landing reported storing.' });

export const PortalAccessSchema = z
  .object({
    sync_url: z.string().nullable().openapi({
      description:
        "Where the worker pushes tenants, plans and metadata (landing's `/api/erp-sync`); null = the worker's `LANDING_SYNC_URL`.",
      example: 'https://www.example.com/api/erp-sync',
    }),
    enabled: z.boolean().openapi({ description: 'Whether the worker pushes at all.' }),
    updated_at: TimestampSchema,
    last_result: z
      .object({
        status: z.enum(SYNC_STATUSES).nullable().openapi({
          description:
            'The last push: `skipped` when disabled or no URL is known; null if none yet.',
        }),
        attempted_at: TimestampSchema.nullable(),
        succeeded_at: TimestampSchema.nullable().openapi({ description: 'The last success.' }),
        target: z.string().nullable().openapi({ description: 'The URL the last push went to.' }),
        http_status: z.number().int().nullable(),
        error: z.string().nullable(),
        counts: SyncCountsSchema.nullable(),
      })
      .openapi({ description: 'Written by the worker after each push.' }),
  })
  .openapi('PortalAccess');

export const UpdatePortalAccessBodySchema = z
  .strictObject({
    sync_url: SyncUrlSchema.nullable()
      .optional()
      .openapi({
        description: `Absolute http(s) URL, at most ${SYNC_URL_MAX_LENGTH} characters, no user name or password; null = fall back to the worker's \`LANDING_SYNC_URL\`.`,
        example: 'https://www.example.com/api/erp-sync',
      }),
    enabled: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), 'change at least one field')
  .openapi('UpdatePortalAccessRequest');

export type UpdatePortalAccessBody = z.infer<typeof UpdatePortalAccessBodySchema>;
