import {
  lookupOf,
  type Resource,
  type ResourceLookup,
  type ResourceOperation,
  resourceOperations,
} from '@erp/contract';

/** What a batch operation's method and path name: one engine operation of one resource. */
export interface ResolvedRoute {
  resource: Resource;
  operation: ResourceOperation;
  /** The path's record id, percent-decoded (validated later, as the route alone would). */
  id?: string;
  /** The query string, every value of every key (as `c.req.queries()` gives it). */
  query: Record<string, string[]>;
  /** Every resource by name: what references resolve against (embeds, the routes' schemas). */
  registry: ResourceLookup;
}

const PREFIX = '/api/v1/';
/** The kinds `runOperation` implements; a resource route of another kind is not batchable. */
const BATCHABLE = new Set(['list', 'get', 'create', 'update', 'delete', 'action', 'convert']);

/**
 * Matches `method path` against the business resources' routes, from the same
 * `resourceOperations` the portal registers them from. Anything else (settings, auth, the batch
 * itself, an unknown path) is `null`: those routes have side effects of their own (e-mails,
 * secrets, sessions) that were never meant to share a transaction.
 */
export function createRouteResolver(resources: readonly Resource[]) {
  const byPath = new Map(resources.map((r) => [r.path, r]));
  const registry = lookupOf(resources);
  const operationsOf = new Map<Resource, ResourceOperation[]>();

  return function resolveRoute(method: string, target: string): ResolvedRoute | null {
    const q = target.indexOf('?');
    const pathname = q === -1 ? target : target.slice(0, q);
    if (!pathname.startsWith(PREFIX) || target.includes('#')) return null;
    const segments = decodeSegments(pathname.slice(PREFIX.length));
    const resource = segments && byPath.get(segments[0]!);
    if (!segments || !resource) return null;
    let operations = operationsOf.get(resource);
    if (!operations) {
      operations = resourceOperations(resource).filter((o) => BATCHABLE.has(o.kind));
      operationsOf.set(resource, operations);
    }
    for (const operation of operations) {
      if (operation.method !== method.toLowerCase()) continue;
      const template = operation.path.slice(PREFIX.length).split('/');
      if (template.length !== segments.length) continue;
      if (!template.every((part, i) => part === '{id}' || part === segments[i])) continue;
      const at = template.indexOf('{id}');
      return {
        resource,
        operation,
        ...(at === -1 ? {} : { id: segments[at] }),
        query: parseQuery(q === -1 ? '' : target.slice(q + 1)),
        registry,
      };
    }
    return null;
  };
}

export type RouteResolver = ReturnType<typeof createRouteResolver>;

/** The path's segments decoded, or null when one is empty, a dot segment or badly encoded. */
function decodeSegments(path: string): string[] | null {
  try {
    const segments = path.split('/').map(decodeURIComponent);
    return segments.every((s) => s !== '' && s !== '.' && s !== '..') ? segments : null;
  } catch {
    return null;
  }
}

/** Without a prototype: a name like `__proto__` or `constructor` is a key like any other. */
function parseQuery(search: string): Record<string, string[]> {
  const query: Record<string, string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(search)) {
    query[key] ??= [];
    query[key].push(value);
  }
  return query;
}
