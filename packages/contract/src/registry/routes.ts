import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import { type ErrorCode, errorResponses } from '../errors';
import { resourceTag } from '../modules';
import { API_KEY, CALLER_ERRORS, SESSION } from '../routes/helpers';
import type { Resource } from './define';
import { pascalCase } from './define';
import type { ResourceLookup } from './embeds';
import { FIELD_TYPES } from './field-types';
import { HistoryPageSchema } from './history';
import {
  cursorQuery,
  idempotencyKeyHeader,
  ifMatchHeader,
  pageSizeQuery,
  preferHeader,
  recordIdParam,
  tenantHeader,
  tenantIdHeader,
} from './parameters';
import { resourceNoun } from './prose';
import { exportRoute, readQuery } from './read-routes';
import { readSchemas } from './read-schemas';
import { resourceSchemas } from './schemas';

export type ResourceRouteKind =
  | 'list'
  | 'export'
  | 'create'
  | 'get'
  | 'update'
  | 'delete'
  | 'action'
  | 'convert'
  | 'history';

/** Whether a route kind reads (`<module>:read`) rather than writes (`<module>:write`). */
export function isReadKind(kind: ResourceRouteKind): boolean {
  return kind === 'list' || kind === 'export' || kind === 'get' || kind === 'history';
}

/** A generated route and what it does, so the portal can implement it generically. */
export interface ResourceRoute {
  kind: ResourceRouteKind;
  resource: Resource;
  action?: string;
  route: RouteConfig;
}

/** How every business route authenticates: a session or an API key (SPEC §6). */
export const RESOURCE_SECURITY = [SESSION, API_KEY];

const AUTH_ERRORS: ErrorCode[] = [...CALLER_ERRORS, 'acces_refuse', 'module_non_souscrit'];
const RECORD_ERRORS: ErrorCode[] = [...AUTH_ERRORS, 'introuvable'];

const tenantHeaders = { 'x-tenant-id': tenantIdHeader, 'x-tenant': tenantHeader };
const idempotencyHeader = { 'idempotency-key': idempotencyKeyHeader };
const etagHeader = { ETag: { $ref: '#/components/headers/ETag' } };
/** A filter's value: `<op>.<value>`, repeated to combine conditions (one schema for all). */
const filterValue = z
  .union([z.string(), z.array(z.string())])
  .openapi('FilterValue', { example: 'eq.value' });

/** One operation of a resource, without its schemas: what routing needs, cheap to list. */
export interface ResourceOperation {
  kind: ResourceRouteKind;
  action?: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI form: `/api/v1/sales-orders/{id}/confirm`. */
  path: string;
}

/**
 * The operations of a resource: list, export, create, get, update, delete, history, one per
 * lifecycle action. Export comes before get, whose `{id}` would otherwise take `export`.
 */
export function resourceOperations(resource: Resource): ResourceOperation[] {
  const all = allOperations(resource);
  return resource.readOnly ? all.filter((o) => READ_ONLY_KINDS.has(o.kind)) : all;
}

/** What a read-only resource (written by the engine) serves. */
const READ_ONLY_KINDS = new Set<ResourceRouteKind>(['list', 'export', 'get']);

function allOperations(resource: Resource): ResourceOperation[] {
  const base = `/api/v1/${resource.path}`;
  return [
    { kind: 'list', method: 'get', path: base },
    { kind: 'export', method: 'get', path: `${base}/export` },
    { kind: 'create', method: 'post', path: base },
    { kind: 'get', method: 'get', path: `${base}/{id}` },
    { kind: 'update', method: 'patch', path: `${base}/{id}` },
    { kind: 'delete', method: 'delete', path: `${base}/{id}` },
    { kind: 'history', method: 'get', path: `${base}/{id}/history` },
    ...Object.keys(resource.lifecycle?.actions ?? {}).map(
      (action): ResourceOperation => ({
        kind: 'action',
        action,
        method: 'post',
        path: `${base}/{id}/${action.replace(/_/g, '-')}`,
      }),
    ),
    ...(resource.conversions ?? []).map(
      (c): ResourceOperation => ({
        kind: 'convert',
        action: c.name,
        method: 'post',
        path: `${base}/{id}/${c.name.replace(/_/g, '-')}`,
      }),
    ),
  ];
}

const built = new WeakMap<Resource, ResourceRoute[]>();

/**
 * Every route of one resource: list, export, create, get, update, delete and one per lifecycle
 * action. `registry` resolves the references reads may embed. Memoized per resource (a resource
 * belongs to one registry): the app and the OpenAPI document share the same (costly) zod schemas.
 */
export function resourceRoutes(resource: Resource, registry: ResourceLookup): ResourceRoute[] {
  let routes = built.get(resource);
  if (!routes) {
    routes = buildResourceRoutes(resource, registry);
    built.set(resource, routes);
  }
  return routes;
}

function buildResourceRoutes(resource: Resource, registry: ResourceLookup): ResourceRoute[] {
  const schemas = resourceSchemas(resource);
  const reads = readSchemas(resource, registry);
  const operations = allOperations(resource);
  const at = (kind: ResourceRouteKind, action?: string) => {
    const { method, path } = operations.find((o) => o.kind === kind && o.action === action)!;
    return { method, path };
  };
  const plural = pascalCase(resource.path.replace(/-/g, '_'));
  const tag = resourceTag(resource.path);
  const common = { tags: [tag], security: RESOURCE_SECURITY };
  const read = `Needs \`${resource.module}:read\`.`;
  const write = `Needs \`${resource.module}:write\`.`;
  const idParams = z.object({ id: recordIdParam });
  const recordResponse = (description: string) => ({
    description,
    headers: etagHeader,
    content: { 'application/json': { schema: schemas.record } },
  });
  const readQueryShape = readQuery(resource, registry);

  const routes: ResourceRoute[] = [
    {
      kind: 'list',
      resource,
      route: createRoute({
        ...common,
        ...at('list'),
        operationId: `list${plural}`,
        summary: `List ${resource.path.replace(/-/g, ' ')}`,
        description: `${read} Filters: \`<field>=<op>.<value>\`; repeat a parameter to combine conditions. Newest first unless \`order\` says otherwise. \`select\` and \`embed\` shape the records; \`Prefer: count=exact\` adds \`total\`.`,
        request: {
          headers: z.object({ ...tenantHeaders, prefer: preferHeader }),
          query: listQuery(resource).extend(readQueryShape),
        },
        responses: {
          200: {
            description: 'One page.',
            headers: {
              'Preference-Applied': {
                description: '`count=exact` when `total` was counted.',
                schema: { type: 'string' },
              },
            },
            content: { 'application/json': { schema: reads.list } },
          },
          ...errorResponses(...AUTH_ERRORS, 'filtre_invalide'),
        },
      }),
    },
    {
      kind: 'export',
      resource,
      route: exportRoute(resource, {
        ...common,
        ...at('export'),
        operationId: `export${plural}`,
        headers: z.object(tenantHeaders),
        filters: filterQuery(resource),
        errors: AUTH_ERRORS,
      }),
    },
    {
      kind: 'create',
      resource,
      route: createRoute({
        ...common,
        ...at('create'),
        operationId: `create${resource.schemaName}`,
        summary: `Create ${resourceNoun(resource.name)}`,
        description: `${write}${resource.events?.includes('created') ? ` Records \`${resource.name}.created\`.` : ''}`,
        request: {
          headers: z.object({ ...tenantHeaders, ...idempotencyHeader }),
          body: { required: true, content: { 'application/json': { schema: schemas.create } } },
        },
        responses: {
          201: recordResponse('Created.'),
          ...errorResponses(...AUTH_ERRORS, 'conflit'),
        },
      }),
    },
    {
      kind: 'get',
      resource,
      route: createRoute({
        ...common,
        ...at('get'),
        operationId: `get${resource.schemaName}`,
        summary: `Get ${resourceNoun(resource.name)}`,
        description: `${read} \`select\` and \`embed\` shape the record.`,
        request: {
          headers: z.object(tenantHeaders),
          params: idParams,
          query: z.object(readQueryShape),
        },
        responses: {
          200: {
            description: 'The record.',
            headers: etagHeader,
            content: { 'application/json': { schema: reads.read } },
          },
          ...errorResponses(...RECORD_ERRORS),
        },
      }),
    },
    {
      kind: 'update',
      resource,
      route: createRoute({
        ...common,
        ...at('update'),
        operationId: `update${resource.schemaName}`,
        summary: `Update ${resourceNoun(resource.name)}`,
        description: `${write} Send \`If-Match\` with the ETag you read to refuse lost updates (\`conflit\`).${resource.lifecycle ? ` Only in states: ${resource.editableStates.join(', ')}.` : ''}`,
        request: {
          headers: z.object({
            ...tenantHeaders,
            'if-match': ifMatchHeader,
          }),
          params: idParams,
          body: { required: true, content: { 'application/json': { schema: schemas.update } } },
        },
        responses: {
          200: recordResponse('The updated record.'),
          ...errorResponses(...RECORD_ERRORS, 'conflit', 'transition_invalide'),
        },
      }),
    },
    {
      kind: 'delete',
      resource,
      route: createRoute({
        ...common,
        ...at('delete'),
        operationId: `delete${resource.schemaName}`,
        summary: `Delete ${resourceNoun(resource.name)}`,
        description: `${write}${resource.lifecycle ? ` Only in states: ${resource.editableStates.join(', ')}.` : ''} A record other records refer to cannot be deleted (\`conflit\`).`,
        request: { headers: z.object(tenantHeaders), params: idParams },
        responses: {
          204: { description: 'Deleted.' },
          ...errorResponses(...RECORD_ERRORS, 'conflit', 'transition_invalide'),
        },
      }),
    },
    {
      kind: 'history',
      resource,
      route: createRoute({
        ...common,
        ...at('history'),
        operationId: `get${resource.schemaName}History`,
        summary: `History of ${resourceNoun(resource.name)}`,
        description: `${read} Every version of the record, newest first: who made it, the action and the fields it changed. A deleted record keeps its history.`,
        request: {
          headers: z.object(tenantHeaders),
          params: idParams,
          query: z.object({ page_size: pageSizeQuery, cursor: cursorQuery }),
        },
        responses: {
          200: {
            description: 'One page of versions.',
            content: { 'application/json': { schema: HistoryPageSchema } },
          },
          ...errorResponses(...RECORD_ERRORS),
        },
      }),
    },
  ];

  for (const [action, spec] of Object.entries(resource.lifecycle?.actions ?? {})) {
    const events = [
      resource.events?.includes('status_changed') ? `${resource.name}.status_changed` : '',
      spec.emits ? `${resource.name}.${spec.emits}` : '',
    ].filter(Boolean);
    routes.push({
      kind: 'action',
      resource,
      action,
      route: createRoute({
        ...common,
        ...at('action', action),
        operationId: `${action.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}${resource.schemaName}`,
        summary: `${pascalCase(action)} ${resourceNoun(resource.name)}: ${spec.from.join(' | ')} → ${spec.to}`,
        description:
          `${write} ${spec.description ?? ''}${events.length ? ` Records ${events.map((e) => `\`${e}\``).join(' and ')}.` : ''}`.trim(),
        request: {
          headers: z.object({ ...tenantHeaders, ...idempotencyHeader }),
          params: idParams,
        },
        responses: {
          200: recordResponse('The record in its new state.'),
          ...errorResponses(
            ...RECORD_ERRORS,
            'conflit',
            'transition_invalide',
            ...goodsErrors(resource, action, registry),
          ),
        },
      }),
    });
  }
  for (const conversion of resource.conversions ?? []) {
    const target = registry.get(conversion.target)!;
    routes.push({
      kind: 'convert',
      resource,
      action: conversion.name,
      route: createRoute({
        ...common,
        ...at('convert', conversion.name),
        operationId: `${conversion.name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}${resource.schemaName}`,
        summary: `${pascalCase(conversion.name)} from ${resourceNoun(resource.name)}: ${conversion.from.join(' | ')}`,
        description: `${write} Makes a draft ${resourceNoun(target.name)} of what remains on the lines${conversion.goods ? ' of goods (stockable or consumable products)' : ''}, in one transaction: each target line names its \`source_line_id\`, and the target's \`${conversion.countedBy}\` counts it in the source line's \`${conversion.counts}\`${conversion.uncountedBy ? ` (its \`${conversion.uncountedBy}\` gives it back)` : ''}. Without a body every remaining quantity is taken; \`lines\` takes a part. More than remains, or nothing left at all: 422 \`quantite_depassee\`. Answers the draft (201); PATCH it before it goes on.`,
        request: {
          headers: z.object({ ...tenantHeaders, ...idempotencyHeader }),
          params: idParams,
          body: {
            required: false,
            content: { 'application/json': { schema: ConversionBodySchema } },
          },
        },
        responses: {
          201: {
            description: `The draft ${resourceNoun(target.name)}.`,
            headers: etagHeader,
            content: { 'application/json': { schema: resourceSchemas(target).record } },
          },
          ...errorResponses(...RECORD_ERRORS, 'transition_invalide', 'quantite_depassee'),
        },
      }),
    });
  }
  return resource.readOnly ? routes.filter((r) => READ_ONLY_KINDS.has(r.kind)) : routes;
}

/** The goods errors an action may answer (SPEC §18): what it counts, what it moves in stock. */
function goodsErrors(resource: Resource, action: string, registry: ResourceLookup): ErrorCode[] {
  const shortcut = resource.lifecycle?.actions[action]?.shortcut !== undefined;
  const counts = [...registry.values()].some((source) =>
    source.conversions?.some((c) => c.target === resource.name && c.countedBy === action),
  );
  const moves = resource.stock?.some((s) => s.action === action || s.reverse === action);
  return [
    ...(shortcut || counts ? (['quantite_depassee'] as const) : []),
    ...(shortcut || moves ? (['stock_insuffisant'] as const) : []),
  ];
}

/** A conversion's optional body: a part of the remaining quantities. */
const ConversionBodySchema = z
  .object({
    lines: z
      .array(
        z
          .object({
            line_id: z.uuid().openapi({ description: 'A line of the source document.' }),
            quantity: z
              .string()
              .regex(/^\d{1,12}(\.\d{1,6})?$/)
              .openapi({
                description: 'How much of what remains to take (exact decimal, > 0).',
                example: '2',
              }),
          })
          .strict(),
      )
      .min(1)
      .max(500)
      .optional()
      .openapi({
        description:
          'The lines to take, each with a quantity; the others are left. Without it, every remaining quantity.',
      }),
  })
  .strict()
  .openapi('ConversionRequest', {
    description: 'A part of what remains (SPEC §18); without it, everything that remains.',
  });

function listQuery(resource: Resource) {
  return z.object({ page_size: pageSizeQuery, cursor: cursorQuery, ...filterQuery(resource) });
}

/** Filters and `order`, shared by the list and the export. */
function filterQuery(resource: Resource) {
  const shape: Record<string, z.ZodType> = {
    order: z
      .string()
      .max(500)
      .optional()
      .openapi({
        param: {
          description: `\`<field>.asc|desc\`, comma-separated. Sortable: ${Object.entries(
            resource.allFields,
          )
            .filter(([, f]) => f.sortable)
            .map(([n]) => `\`${n}\``)
            .join(', ')}.`,
        },
      }),
  };
  for (const [name, field] of Object.entries(resource.allFields)) {
    if (!field.filterable) continue;
    shape[name] = filterValue.optional().openapi({
      param: {
        description: `Filter \`${name}=<op>.<value>\`; operators: ${FIELD_TYPES[field.type].operators.join(', ')}.`,
      },
    });
  }
  return shape;
}
