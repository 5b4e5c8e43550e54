import { ApiError, type BatchOperation, routes } from '@erp/contract';
import type pg from 'pg';
import type { Deps } from '../deps';
import { actorOf } from '../http/context';
import {
  idempotencyPrincipal,
  type OperationResult,
  parseReadShape,
  requestFingerprint,
  runIdempotent,
  runOperation,
} from '../resources';
import { type BatchCaller, planOperation, unsupportedOperation } from './plan';
import { fillBody, fillPath, type Lookup, valueAt } from './references';
import type { ResolvedRoute, RouteResolver } from './resolve';
import { operationInput } from './validate';

/** The batch's answer: `{results}` as JSON text, and whether it is an Idempotency-Key replay. */
export interface BatchAnswer {
  body: string;
  replayed: boolean;
}

/**
 * Runs a batch: every operation planned (references, route, right) before anything runs, then
 * all of them in order in one transaction of the tenant, through the resource engine. The first
 * failure throws its error with `params.index` and the transaction rolls back, events (the
 * webhook outbox) included. With an Idempotency-Key the claim, the
 * operations and the stored answer share that transaction, as a single POST's do.
 */
export async function runBatch(
  deps: Deps,
  resolveRoute: RouteResolver,
  who: BatchCaller,
  operations: BatchOperation[],
  idempotencyKey: string | undefined,
): Promise<BatchAnswer> {
  const planned = operations.map((operation, index) =>
    atIndex(index, () => planOperation(resolveRoute, who, operation, index)),
  );
  const tenantId = who.tenant.id;
  const execute = async (client: pg.PoolClient) => ({
    status: 200,
    etag: null,
    body: await executeBatch(client, tenantId, resolveRoute, who, operations, planned),
  });
  const answer = await deps.tenantDb.transaction(tenantId, (client) =>
    idempotencyKey
      ? runIdempotent(
          client,
          tenantId,
          idempotencyPrincipal(who.caller),
          idempotencyKey,
          requestFingerprint('POST', routes.batch.path, { operations }),
          () => execute(client),
        )
      : execute(client).then((response) => ({ ...response, replayed: false })),
  );
  if (answer.replayed) checkReplayedReads(resolveRoute, who, operations, answer.body);
  return { body: answer.body, replayed: answer.replayed };
}

/**
 * A replay hands out what the reads read when the batch ran: the rights they needed are checked
 * again first, as a run would (SPEC §16). The operations' own rights were checked by their
 * plan; what is left is each read's `select` and `embed` (an embed needs the read right on its
 * target's module, which the principal may have lost since), with the references filled from
 * the stored answer as they were filled from the live one.
 */
function checkReplayedReads(
  resolveRoute: RouteResolver,
  who: BatchCaller,
  operations: BatchOperation[],
  stored: string,
) {
  const results = (JSON.parse(stored) as { results: { body: unknown }[] }).results;
  const lookup: Lookup = (reference) => valueAt(results[reference.index]?.body ?? null, reference);
  const access = { rights: who.caller.rights, modules: who.tenant.modules };
  for (const [index, operation] of operations.entries()) {
    atIndex(index, () => {
      const route = resolveRoute(operation.method, fillPath(operation.path, lookup));
      if (!route) throw unsupportedOperation(operation);
      const { kind } = route.operation;
      if (kind === 'list' || kind === 'get')
        parseReadShape(route.resource, route.registry, route.query, access);
    });
  }
}

async function executeBatch(
  client: pg.PoolClient,
  tenantId: string,
  resolveRoute: RouteResolver,
  who: BatchCaller,
  operations: BatchOperation[],
  planned: ResolvedRoute[],
): Promise<string> {
  await lockDocumentSequences(client, planned);
  const actor = actorOf(who.caller);
  const results: OperationResult[] = [];
  const parsed = new Map<number, unknown>();
  const lookup: Lookup = (reference) => {
    if (!parsed.has(reference.index)) {
      const body = results[reference.index]!.body;
      parsed.set(reference.index, body === null ? null : JSON.parse(body));
    }
    return valueAt(parsed.get(reference.index), reference);
  };
  for (const [index, operation] of operations.entries()) {
    await atIndex(index, async () => {
      const route = resolveRoute(operation.method, fillPath(operation.path, lookup));
      // Values are percent-encoded into the path, so they cannot make it another route.
      if (route?.operation !== planned[index]!.operation) throw unsupportedOperation(operation);
      const body = operation.body === undefined ? undefined : fillBody(operation.body, lookup);
      const input = await operationInput(route, body, operation.if_match, {
        rights: who.caller.rights,
        modules: who.tenant.modules,
      });
      results.push(await runOperation(client, tenantId, input, actor));
    });
  }
  const items = results.map(
    (r) =>
      `{"status":${r.status},"etag":${r.etag ? JSON.stringify(r.etag) : 'null'},"body":${r.body ?? 'null'}}`,
  );
  return `{"results":[${items.join(',')}]}`;
}

/**
 * Takes the document-number counters the batch's creations will use, in one order (by
 * prefix), before any of them: a batch holds its counters until it commits, and two batches
 * taking two counters in opposite orders would deadlock. Batches numbering the same documents
 * run one after the other instead. A counter taken this way but not yet used holds 0, so the
 * first number is still 1 (`insertRecord`'s counter).
 */
async function lockDocumentSequences(client: pg.PoolClient, planned: ResolvedRoute[]) {
  const prefixes = [
    ...new Set(
      planned
        .filter((r) => r.operation.kind === 'create' && r.resource.numbering)
        .map((r) => r.resource.numbering!.prefix),
    ),
  ].sort();
  if (prefixes.length === 0) return;
  await client.query(
    `INSERT INTO document_sequences AS s (tenant_id, prefix, year, last_value)
     SELECT erp_tenant_id(), p, extract(year FROM now())::integer, 0 FROM unnest($1::text[]) AS p ORDER BY p
     ON CONFLICT (tenant_id, prefix, year) DO UPDATE SET last_value = s.last_value`,
    [prefixes],
  );
}

/** Runs one operation's step; its error becomes the batch's, with `params.index`. */
function atIndex<T>(index: number, step: () => T): T {
  const withIndex = (error: unknown) => {
    if (!(error instanceof ApiError)) return error;
    return new ApiError(
      error.code,
      error.message,
      { ...error.params, index },
      {
        status: error.status,
        headers: error.headers,
        cause: error,
      },
    );
  };
  try {
    const result = step();
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        throw withIndex(error);
      }) as T;
    }
    return result;
  } catch (error) {
    throw withIndex(error);
  }
}
