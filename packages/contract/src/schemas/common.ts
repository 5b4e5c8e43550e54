import { z } from '@hono/zod-openapi';
import { isDate, isTimestamp } from '../registry/field-values';

/** Whether a URL carries no user name or password (a string that is not a URL passes: z.url() reports it). */
export function withoutCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return !parsed.username && !parsed.password;
  } catch {
    return true;
  }
}

/** Refinement option: run only when the value passed every earlier check (one issue per problem). */
export const whenValidSoFar = {
  when: (payload: { issues: unknown[] }) => payload.issues.length === 0,
};

export const UuidSchema = z.uuid().openapi({ example: '0b6f4c52-3f0e-4c7e-9a39-7d1f0f3b2a11' });
export const TimestampSchema = z.iso
  .datetime({ offset: true })
  .refine(isTimestamp, {
    message: 'an instant PostgreSQL stores exactly: offset at most ±15:59, years 0001–9999',
    ...whenValidSoFar,
  })
  .openapi({ example: '2026-11-22T10:00:00Z' });
/** A calendar day PostgreSQL stores exactly (years 0001–9999). */
export const DateSchema = z.iso
  .date()
  .refine(isDate, {
    message: 'a calendar date between 0001-01-01 and 9999-12-31',
    ...whenValidSoFar,
  })
  .openapi({ example: '2026-11-22' });
export const EmailSchema = z.email().max(254).openapi({ example: 'admin@demo.test' });
export const SlugSchema = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'lowercase letters, digits and inner dashes')
  .openapi({ example: 'demo' });
export const PasswordSchema = z
  .string()
  .min(12)
  .max(256)
  .openapi({ example: 'correct horse battery' });

export const IdParamsSchema = z.object({
  id: UuidSchema.openapi({ param: { name: 'id', in: 'path' } }),
});

/** Both tenant header names are accepted in both modes (SPEC §3). */
export const TenantHeadersSchema = z.object({
  'x-tenant-id': z
    .string()
    .optional()
    .openapi({ description: 'Tenant slug or UUID (API keys).', example: 'demo' }),
  'x-tenant': z
    .string()
    .optional()
    .openapi({ description: 'Tenant slug or UUID (sessions).', example: 'demo' }),
});

/** `{data: [...]}` list envelope. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item) });
}

/** `page_size` and `cursor`, the keyset pagination parameters of every list. */
export function pageQueryShape(maxCursorLength: number) {
  return {
    page_size: z.coerce
      .number()
      .int()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: 'Rows per page (default 50, max 200).' }),
    cursor: z
      .string()
      .max(maxCursorLength)
      .optional()
      .openapi({ description: 'Opaque cursor from a previous page’s `next_cursor`.' }),
  };
}
