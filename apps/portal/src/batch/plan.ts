import { ApiError, type BatchOperation } from '@erp/contract';
import { requireRight } from '../auth';
import type { Caller, TenantRef } from '../http/context';
import { resourceRights } from '../resources';
import { fillPath, invalidReference, referencesIn, referencesInValue } from './references';
import type { ResolvedRoute, RouteResolver } from './resolve';

/** Who runs a batch: the batch request's caller and tenant, the only ones its operations get. */
export interface BatchCaller {
  caller: Caller;
  tenant: TenantRef;
}

/**
 * What can be checked of an operation before anything runs: its references name earlier
 * operations, its method and path name a business resource route (a reference stands for a
 * value there), the caller holds that route's right, and it carries only what the route takes.
 */
export function planOperation(
  resolveRoute: RouteResolver,
  { caller, tenant }: BatchCaller,
  operation: BatchOperation,
  index: number,
): ResolvedRoute {
  for (const reference of [...referencesIn(operation.path), ...referencesInValue(operation.body)]) {
    if (reference.index >= index) {
      throw invalidReference(
        reference,
        'not_earlier',
        `${reference.text} names operation ${reference.index}: an operation can only read the answers of those before it.`,
      );
    }
  }
  // Any text will do for the values: the route is the same whatever record a reference names.
  const route = resolveRoute(
    operation.method,
    fillPath(operation.path, () => 'x'),
  );
  if (!route) throw unsupportedOperation(operation);
  for (const right of resourceRights(route.resource, route.operation.kind, route.operation.action))
    requireRight({ rights: caller.rights, modules: tenant.modules }, right);
  const kind = route.operation.kind;
  // `{}` says nothing: the route alone accepts it (clients send it with every POST), so the
  // batch does too. A body with something in it would be ignored alone: refused here.
  if (
    operation.body !== undefined &&
    kind !== 'create' &&
    kind !== 'update' &&
    !isEmpty(operation.body)
  ) {
    throw new ApiError('requete_invalide', `${operation.method} ${operation.path} takes no body.`, {
      reason: 'unexpected_body',
    });
  }
  if (operation.if_match !== undefined && kind !== 'update') {
    throw new ApiError('requete_invalide', 'Only a PATCH honours if_match.', {
      reason: 'unexpected_if_match',
    });
  }
  return route;
}

function isEmpty(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    Object.keys(body).length === 0
  );
}

export function unsupportedOperation(operation: BatchOperation): ApiError {
  return new ApiError(
    'requete_invalide',
    `${operation.method} ${operation.path} is not an operation of a business resource: a batch runs their list, get, create, patch, delete, lifecycle actions and conversions.`,
    { reason: 'unsupported_operation', method: operation.method, path: operation.path },
  );
}
