import {
  ApiError,
  catalogue,
  isReadKind,
  type Resource,
  type ResourceRouteKind,
} from '@erp/contract';
import type pg from 'pg';
import type { ActorRef } from '../http/context';
import { postAllocation, reverseAllocation } from './books/allocation-postings';
import { afterAction, beforeAction, postsOnAction, readAlongside } from './books/posting';
import { allocationSides, recordSettled, snapshotSides } from './books/settled-records';
import {
  afterGoodsAction,
  type ConversionRequest,
  convert,
  goodsAllow,
  goodsOnAction,
} from './goods';
import { recordHistory } from './history-read';
import { withoutServerLineFields } from './input';
import type { ReadShape } from './read';
import { getRecord, listRecords } from './records-read';
import {
  insertRecord,
  patchRecord,
  removeRecord,
  transitionRecord,
  type WrittenRecord,
} from './records-write';

/** One operation of the engine on one resource, its input already validated. */
export type RecordOperation = { resource: Resource } & (
  | {
      kind: 'list';
      query: Record<string, string[]>;
      pageSize?: number;
      cursor?: string;
      /** `select` and `embed` (the whole record without). */
      shape?: ReadShape;
      /** `Prefer: count=exact`: the page also says how many records match. */
      count?: boolean;
    }
  | { kind: 'get'; id: string; shape?: ReadShape }
  | { kind: 'history'; id: string; pageSize?: number; cursor?: string }
  | { kind: 'create'; body: Record<string, unknown> }
  | { kind: 'update'; id: string; body: Record<string, unknown>; expectedVersion: number | null }
  | { kind: 'delete'; id: string }
  | { kind: 'action'; id: string; action: string }
  | { kind: 'convert'; id: string; action: string; body: ConversionRequest }
);

/**
 * Whether an operation writes more than one statement (the books' postings), so it must run in
 * a transaction of its own even without an Idempotency-Key.
 */
export function needsTransaction(operation: RecordOperation): boolean {
  if (operation.kind === 'convert') return true;
  if (operation.kind === 'action')
    return (
      postsOnAction(operation.resource, operation.action) ||
      goodsOnAction(operation.resource, operation.action)
    );
  return (
    (operation.kind === 'create' || operation.kind === 'delete') &&
    operation.resource.ledgerRole === 'allocation'
  );
}

/**
 * The rights an operation needs: `<module>:read` for the reads (list, export, get, history),
 * `<module>:write` for the rest; a conversion, or a shortcut that makes one (SPEC §18), also
 * writes its target: `<target module>:write` too (a sales order's invoice is the accounting's).
 */
export function resourceRights(
  resource: Resource,
  kind: ResourceRouteKind,
  action?: string,
): string[] {
  const own = `${resource.module}:${isReadKind(kind) ? 'read' : 'write'}`;
  const conversion =
    kind === 'convert'
      ? action
      : kind === 'action' && action
        ? resource.lifecycle?.actions[action]?.shortcut?.conversion
        : undefined;
  const target = resource.conversions?.find((c) => c.name === conversion)?.target;
  const module = target ? catalogue.find((r) => r.name === target)?.module : undefined;
  return module && module !== resource.module ? [own, `${module}:write`] : [own];
}

/** What an operation answers: status, ETag and JSON text (null for 204). */
export interface OperationResult {
  status: number;
  etag: string | null;
  body: string | null;
}

/**
 * Runs one operation on `client`, in whatever transaction the caller holds: a request's own
 * (single statements, or the Idempotency-Key's transaction) or a batch's, where it is one of
 * many that commit or roll back together. `actor` is who the record's history names.
 */
export async function runOperation(
  client: pg.PoolClient,
  tenantId: string,
  operation: RecordOperation,
  actor: ActorRef,
): Promise<OperationResult> {
  const { resource } = operation;
  switch (operation.kind) {
    case 'list': {
      const { pageSize, cursor, shape, count } = operation;
      const body = await listRecords(client, resource, tenantId, operation.query, {
        pageSize,
        cursor,
        shape,
        count,
      });
      return { status: 200, etag: null, body };
    }
    case 'get':
      return recordResult(
        200,
        await getRecord(client, resource, tenantId, operation.id, operation.shape),
      );
    case 'history': {
      const { id, pageSize, cursor } = operation;
      const body = await recordHistory(client, resource, tenantId, id, { pageSize, cursor });
      return { status: 200, etag: null, body };
    }
    case 'create': {
      if (resource.ledgerRole !== 'allocation')
        return recordResult(
          201,
          await insertRecord(
            client,
            resource,
            tenantId,
            withoutServerLineFields(resource, operation.body),
            actor,
          ),
        );
      const sides = await snapshotSides(client, tenantId, operation.body);
      const written = await insertRecord(client, resource, tenantId, operation.body, actor);
      await recordSettled(client, tenantId, sides, actor);
      await postAllocation(
        client,
        tenantId,
        (JSON.parse(written.json) as { id: string }).id,
        actor,
      );
      return recordResult(201, written);
    }
    case 'update': {
      const { id, expectedVersion } = operation;
      const body = withoutServerLineFields(resource, operation.body);
      return recordResult(
        200,
        await patchRecord(client, resource, tenantId, id, body, expectedVersion, actor),
      );
    }
    case 'delete': {
      if (resource.ledgerRole !== 'allocation') {
        await removeRecord(client, resource, tenantId, operation.id, actor);
        return { status: 204, etag: null, body: null };
      }
      const sides = await snapshotSides(
        client,
        tenantId,
        await allocationSides(client, tenantId, resource, operation.id),
      );
      await reverseAllocation(client, tenantId, resource, operation.id, actor);
      await removeRecord(client, resource, tenantId, operation.id, actor);
      await recordSettled(client, tenantId, sides, actor);
      return { status: 204, etag: null, body: null };
    }
    case 'action': {
      const { id, action } = operation;
      const shortcut = resource.lifecycle?.actions[action]?.shortcut;
      if (shortcut) return runShortcut(client, tenantId, resource, id, action, actor);
      const posts = postsOnAction(resource, action);
      const goods = goodsOnAction(resource, action);
      if (!posts && !goods)
        return recordResult(
          200,
          await transitionRecord(client, resource, tenantId, id, action, actor),
        );
      if (posts) await beforeAction(client, resource, tenantId, id, action);
      const written = await transitionRecord(
        client,
        resource,
        tenantId,
        id,
        action,
        actor,
        posts ? readAlongside(resource, action) : undefined,
      );
      const doc = JSON.parse(written.json) as Record<string, unknown>;
      if (posts)
        await afterAction(client, resource, tenantId, action, actor, doc, written.alongside);
      if (goods)
        await afterGoodsAction(
          client,
          tenantId,
          resource,
          action,
          doc,
          written.previousStatus,
          actor,
        );
      return recordResult(200, written);
    }
    case 'convert': {
      const { id, action, body } = operation;
      return recordResult(201, await convert(client, tenantId, resource, id, action, body, actor));
    }
  }
}

/**
 * A shortcut (SPEC §18): the conversion of everything that remains, then the target's action,
 * from the states the shortcut's own action allows; answers the source as it is then (its
 * status followed its goods).
 */
async function runShortcut(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  id: string,
  action: string,
  actor: ActorRef,
): Promise<OperationResult> {
  const spec = resource.lifecycle!.actions[action]!;
  const { conversion, runs, basis } = spec.shortcut!;
  let draft: WrittenRecord;
  try {
    draft = await convert(client, tenantId, resource, id, conversion, {}, actor, {
      basis,
      from: spec.from,
      action,
    });
  } catch (error) {
    // No goods to move at all (an order of services): the action is the status change it
    // always was, when the goods allow that status.
    const nothingLeft =
      error instanceof ApiError &&
      error.code === 'quantite_depassee' &&
      error.params.line_id === null;
    if (!nothingLeft || !(await goodsAllow(client, tenantId, resource, id, spec.to))) throw error;
    return recordResult(200, await transitionRecord(client, resource, tenantId, id, action, actor));
  }
  const target = catalogue.find(
    (r) => r.name === resource.conversions!.find((c) => c.name === conversion)!.target,
  )!;
  const { id: draftId } = JSON.parse(draft.json) as { id: string };
  await runOperation(
    client,
    tenantId,
    { kind: 'action', resource: target, id: draftId, action: runs },
    actor,
  );
  return recordResult(200, await getRecord(client, resource, tenantId, id));
}

function recordResult(status: number, record: WrittenRecord): OperationResult {
  return { status, etag: `"${record.version}"`, body: record.json };
}

/** `"3"`, `W/"3"` or `*` (any version); anything else cannot match any version: conflict. */
export function parseIfMatch(header: string | undefined): number | null {
  if (header === undefined || header.trim() === '*') return null;
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header);
  if (!match)
    throw new ApiError('conflit', 'If-Match does not name a version of this record.', {
      reason: 'version_mismatch',
    });
  return Number(match[1]);
}
