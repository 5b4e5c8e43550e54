import { createRoute } from '@hono/zod-openapi';
import { errorResponses } from '../errors';
import { idempotencyKeyHeader } from '../registry/parameters';
import { BATCH_MAX_OPERATIONS, BatchRequestSchema, BatchResponseSchema } from '../schemas/batch';
import { TenantHeadersSchema } from '../schemas/common';
import { API_KEY, CALLER_ERRORS, jsonBody, jsonResponse, SESSION } from './helpers';

/** `POST /api/v1/batch` (SPEC §12): business operations in one transaction, all or nothing. */
export const batch = createRoute({
  security: [SESSION, API_KEY],
  tags: ['Batch'],
  method: 'post',
  path: '/api/v1/batch',
  operationId: 'batch',
  summary: 'Run up to 100 business operations in one transaction',
  description: [
    `At most ${BATCH_MAX_OPERATIONS} operations, each a route of a business resource (list, get, create, patch, delete, lifecycle action, conversion) named by its method and full path; any other route is refused (\`requete_invalide\`, \`params.reason: "unsupported_operation"\`). They run in order in one transaction: all are kept, or, at the first failure, none, and the answer is that operation's error with \`params.index\` (0-based). Reads see the writes before them. Success is \`{results: [{status, etag, body}]}\`, one per operation, each what its route answers alone.`,
    'A later operation may use `{{<index>.<field>}}` in its path or body: the value of `field` (a dotted path such as `lines.0.product_id`) in the body answered to operation `index`. A body string that is exactly one reference takes the value with its JSON type; a reference inside a longer string (or in the path, where it is percent-encoded) is replaced by its text, and must then be a string, number or boolean. `\\{{` is a literal `{{`. A reference to this or a later operation, or to a field the answer lacks, is `requete_invalide` with `params.reason: "invalid_reference"`.',
    'Each operation needs the right it needs alone (checked for all before anything runs) and counts as one request against an API key’s rate limit: a batch of 100 takes 100 units, or is refused whole with `limite_depassee` before it runs. `Idempotency-Key` applies to the whole batch. The tenant is the batch request’s.',
  ].join('\n\n'),
  request: {
    headers: TenantHeadersSchema.extend({ 'idempotency-key': idempotencyKeyHeader }),
    body: jsonBody(BatchRequestSchema),
  },
  responses: {
    200: jsonResponse(
      BatchResponseSchema,
      'Every operation succeeded; one result per operation, in order.',
      true,
    ),
    ...errorResponses(
      ...CALLER_ERRORS,
      'acces_refuse',
      'module_non_souscrit',
      'filtre_invalide',
      'introuvable',
      'conflit',
      'transition_invalide',
    ),
  },
});
