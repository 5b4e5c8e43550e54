import { z } from '@hono/zod-openapi';

/**
 * Parameters every business route shares. Each carries a ref id, so the OpenAPI document lists
 * it once under `components.parameters` and every operation refers to it (1000 operations would
 * otherwise repeat the same ten lines each).
 */
export const tenantIdHeader = z
  .string()
  .optional()
  .openapi('TenantIdHeader', {
    param: { name: 'x-tenant-id', in: 'header' },
    description: 'Tenant slug or UUID (API keys).',
  });

export const tenantHeader = z
  .string()
  .optional()
  .openapi('TenantHeader', {
    param: { name: 'x-tenant', in: 'header' },
    description: 'Tenant slug or UUID (sessions).',
  });

export const idempotencyKeyHeader = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .openapi('IdempotencyKeyHeader', {
    param: { name: 'idempotency-key', in: 'header' },
    description:
      'Retrying with the same key and body within 24 h returns the first response without acting twice; another body gets `conflit`.',
  });

export const ifMatchHeader = z
  .string()
  .optional()
  .openapi('IfMatchHeader', {
    param: { name: 'if-match', in: 'header' },
    description: 'ETag of the version you read: the change is refused (`conflit`) if it moved on.',
  });

export const preferHeader = z
  .string()
  .max(500)
  .optional()
  .openapi('PreferHeader', {
    param: { name: 'prefer', in: 'header' },
    description:
      '`count=exact`: the page says how many rows match the filters (`total`), and the answer carries `Preference-Applied: count=exact`.',
  });

export const recordIdParam = z
  .uuid()
  .openapi('RecordId', { param: { name: 'id', in: 'path' }, description: 'The record’s id.' });

export const pageSizeQuery = z.coerce
  .number()
  .int()
  .min(1)
  .max(200)
  .optional()
  .openapi('PageSize', {
    param: { name: 'page_size', in: 'query' },
    description: 'Rows per page (default 50, max 200).',
  });

export const cursorQuery = z
  .string()
  .max(4096)
  .optional()
  .openapi('Cursor', {
    param: { name: 'cursor', in: 'query' },
    description: 'Opaque cursor from a previous page’s `next_cursor`.',
  });

/** Every shared parameter, for the document to list under `components.parameters`. */
export const SHARED_PARAMETERS = {
  TenantIdHeader: tenantIdHeader,
  TenantHeader: tenantHeader,
  IdempotencyKeyHeader: idempotencyKeyHeader,
  IfMatchHeader: ifMatchHeader,
  PreferHeader: preferHeader,
  RecordId: recordIdParam,
  PageSize: pageSizeQuery,
  Cursor: cursorQuery,
} as const;

/** The `ETag` response header, listed once under `components.headers`. */
export const ETAG_HEADER = {
  description: 'Version of the record; send it back in If-Match.',
  schema: { type: 'string' as const },
};
