import { z } from '@hono/zod-openapi';

/** The most operations one `POST /api/v1/batch` may carry (SPEC §12). */
export const BATCH_MAX_OPERATIONS = 100;

/**
 * `{{<index>.<field>}}`: the value of `field` (a dotted path: `lines.0.product_id`) in the body
 * answered to the earlier operation `index`. Preceded by a backslash it is literal text.
 */
export const BATCH_REFERENCE = /(\\?)\{\{(\d+)\.([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\}\}/g;

export const BatchOperationSchema = z
  .strictObject({
    method: z.enum(['GET', 'POST', 'PATCH', 'DELETE']).openapi({ example: 'POST' }),
    path: z.string().min(1).max(2048).openapi({
      description:
        'The full path of a business resource route, `/api/v1/...`, query string included for a list. May hold `{{<index>.<field>}}` references to earlier results.',
      example: '/api/v1/sales-orders/{{1.id}}/confirm',
    }),
    body: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({
        description:
          'The JSON body of a create or a patch, as the route takes it alone. Its strings may hold references: a string that is exactly one reference takes the referenced value with its JSON type; a reference inside a longer string is replaced by its text.',
        example: { customer_id: '{{0.id}}', order_date: '2026-03-05', currency: 'EUR' },
      }),
    if_match: z.string().max(64).optional().openapi({
      description: 'For a `PATCH`: the `If-Match` it would send alone (the ETag you read).',
      example: '"3"',
    }),
  })
  .openapi('BatchOperation');

export const BatchRequestSchema = z
  .strictObject({
    operations: z.array(BatchOperationSchema).min(1).max(BATCH_MAX_OPERATIONS),
  })
  .openapi('BatchRequest', {
    example: {
      operations: [
        {
          method: 'POST',
          path: '/api/v1/customers',
          body: { name: 'Müller GmbH', customer_type: 'company', active: true },
        },
        {
          method: 'POST',
          path: '/api/v1/sales-orders',
          body: {
            customer_id: '{{0.id}}',
            order_date: '2026-03-05',
            currency: 'EUR',
            lines: [
              {
                description: 'Installation',
                quantity: '2',
                unit_price_cents: 14900,
                tax_rate: '20',
              },
            ],
          },
        },
        { method: 'POST', path: '/api/v1/sales-orders/{{1.id}}/confirm' },
        { method: 'POST', path: '/api/v1/sales-orders/{{1.id}}/make-invoice' },
      ],
    },
  });

export const BatchResultSchema = z
  .object({
    status: z.number().int().openapi({ example: 201 }),
    etag: z.string().nullable().openapi({
      description:
        'The ETag the route answers alone (a record’s version), for a later If-Match; null for a list or a delete.',
      example: '"1"',
    }),
    body: z.unknown().openapi({
      description:
        'What the route answers alone: the record, a page `{data, next_cursor}`, or null (204).',
      example: { id: '0193a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b', name: 'Müller GmbH' },
    }),
  })
  .openapi('BatchResult');

export const BatchResponseSchema = z
  .object({
    results: z.array(BatchResultSchema).openapi({ description: 'One per operation, in order.' }),
  })
  .openapi('BatchResponse', {
    example: {
      results: [
        {
          status: 201,
          etag: '"1"',
          body: { id: '0193a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b', name: 'Müller GmbH' },
        },
        {
          status: 201,
          etag: '"1"',
          body: { id: '0193a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a2c', number: 'SO-2026-00042' },
        },
        {
          status: 200,
          etag: '"2"',
          body: { id: '0193a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a2c', status: 'confirme' },
        },
      ],
    },
  });

export type BatchOperation = z.infer<typeof BatchOperationSchema>;
export type BatchRequest = z.infer<typeof BatchRequestSchema>;
