import { ApiError, resourceRoutes } from '@erp/contract';
import { invalidRequest } from '@erp/http';
import type { ZodObject, ZodType } from 'zod';
import { parseIfMatch, parseReadShape, type ReadAccess, type RecordOperation } from '../resources';
import type { ResolvedRoute } from './resolve';

/**
 * An operation's input checked against its contract route exactly as the route checks it alone
 * (the same zod schemas, query then path then body, the same `requete_invalide` issues), and
 * turned into the engine's operation. A list's or a get's `select` and `embed` are checked
 * against `access` as alone; `Prefer: count=exact` is a header, which an operation has not.
 */
export async function operationInput(
  { resource, operation, id, query, registry }: ResolvedRoute,
  body: unknown,
  ifMatch: string | undefined,
  access: ReadAccess,
): Promise<RecordOperation> {
  const { kind, action } = operation;
  const { route } = resourceRoutes(resource, registry).find(
    (r) => r.kind === kind && r.action === action,
  )!;
  const request = route.request ?? {};
  // A list's other keys are its filters; any other route takes only the keys it declares
  // (a get's select and embed), where alone it would ignore the rest.
  const declared = request.query ? Object.keys((request.query as ZodObject).shape) : [];
  const undeclared = Object.keys(query).filter((key) => !declared.includes(key));
  if (kind !== 'list' && undeclared.length > 0) {
    throw new ApiError(
      'requete_invalide',
      declared.length
        ? `This operation takes only ${declared.join(', ')} in its query string.`
        : 'This operation takes no query string.',
      { reason: 'unexpected_query', names: undeclared },
    );
  }
  let validQuery: { page_size?: number; cursor?: string } = {};
  if (request.query) validQuery = await parse(request.query as ZodType, flatten(query), 'query');
  const validId = request.params
    ? (await parse<{ id: string }>(request.params as ZodType, { id }, 'param')).id.toLowerCase()
    : '';
  const json = request.body?.content['application/json'];
  const schema = json && 'schema' in json ? (json.schema as ZodType) : undefined;
  // An optional body (a conversion's) left out is none: everything that remains.
  const none = body === undefined && request.body?.required === false;
  const validBody =
    schema && !none ? await parse<Record<string, unknown>>(schema, body, 'json') : {};
  const shape = () => parseReadShape(resource, registry, query, access);
  switch (kind) {
    case 'list':
      return {
        kind,
        resource,
        query,
        pageSize: validQuery.page_size,
        cursor: validQuery.cursor,
        shape: shape(),
      };
    case 'get':
      return { kind, resource, id: validId, shape: shape() };
    case 'export':
      throw new Error('the export is not batchable (resolve.ts)');
    case 'delete':
      return { kind, resource, id: validId };
    case 'history':
      return {
        kind,
        resource,
        id: validId,
        pageSize: validQuery.page_size,
        cursor: validQuery.cursor,
      };
    case 'create':
      return { kind, resource, body: validBody };
    case 'update':
      return {
        kind,
        resource,
        id: validId,
        body: validBody,
        expectedVersion: parseIfMatch(ifMatch),
      };
    case 'action':
      return { kind, resource, id: validId, action: action! };
    case 'convert':
      return { kind, resource, id: validId, action: action!, body: validBody };
  }
}

async function parse<T>(schema: ZodType, value: unknown, target: string): Promise<T> {
  const result = await schema.safeParseAsync(value);
  if (!result.success) throw invalidRequest(target, result.error);
  return result.data as T;
}

/** A key given once is a string, as Hono's query validator hands it to the schema. */
function flatten(query: Record<string, string[]>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(query).map(([key, values]) => [key, values.length === 1 ? values[0]! : values]),
  );
}
