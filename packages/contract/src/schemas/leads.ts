import { z } from '@hono/zod-openapi';
import { EmailSchema, TimestampSchema, UuidSchema } from './common';

export const LEAD_KINDS = ['contact', 'demo'] as const;

/** A contact or demo request landing took and forwards to the portal (`/api/v1/internal/leads`). */
export const PlatformLeadBodySchema = z
  .object({
    id: UuidSchema.openapi({ description: "Landing's id of the lead: a replay is a no-op." }),
    kind: z.enum(LEAD_KINDS),
    name: z.string().trim().min(1).max(200),
    email: EmailSchema,
    company: z.string().trim().max(200).nullable().optional(),
    phone: z.string().trim().max(50).nullable().optional(),
    message: z.string().trim().max(5000).nullable().optional(),
    details: z
      .record(z.string(), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
      .optional()
      .openapi({ description: 'Form-specific answers (demo: team size, modules wanted, …).' }),
    submitted_at: TimestampSchema,
  })
  .openapi('PlatformLeadRequest');

export type PlatformLeadBody = z.infer<typeof PlatformLeadBodySchema>;

export const PlatformLeadSchema = PlatformLeadBodySchema.extend({
  received_at: TimestampSchema,
}).openapi('PlatformLead');
