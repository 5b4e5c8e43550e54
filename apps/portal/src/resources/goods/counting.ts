import {
  ApiError,
  type ConversionDeclaration,
  catalogue,
  FOLLOW_ACTION,
  fromMillionths,
  type ProgressRule,
  type Resource,
  toMillionths,
} from '@erp/contract';
import type pg from 'pg';
import type { ActorRef } from '../../http/context';
import { recordSettled, type Snapshot } from '../books/settled-records';
import { mapWriteError } from '../pg-errors';
import { goodsProducts } from './products';
import type { Consumed } from './reservation';
import { named } from './sql';
import { statesAfter } from './states';

/** Each target's conversions, with their source (SPEC §18). */
const conversionsInto = new Map<
  string,
  { source: Resource; conversion: ConversionDeclaration }[]
>();
for (const source of catalogue)
  for (const conversion of source.conversions ?? []) {
    const list = conversionsInto.get(conversion.target) ?? [];
    list.push({ source, conversion });
    conversionsInto.set(conversion.target, list);
  }

/** Whether a target's action counts on (or gives back to) a source's lines. */
export function countsOnAction(target: Resource, action: string): boolean {
  return (conversionsInto.get(target.name) ?? []).some(
    ({ conversion }) => conversion.countedBy === action || conversion.uncountedBy === action,
  );
}

type Line = Record<string, unknown> & { id: string; quantity: string };

/**
 * After a target's action (SPEC §18): its lines count on their source lines (`countedBy`), or
 * give back what they counted (`uncountedBy`, from a state the counting led to). The source is
 * locked, checked exactly (never more than its line's quantity: 422 `quantite_depassee`; the
 * database's CHECK is the last wall), its status follows its goods, and the change is
 * recorded (history and event, action `follow`). Answers what the counts consumed of the
 * sources' reservations (a delivery's), which the caller releases once its stock has moved:
 * the level rows are locked as late as they can be.
 */
export async function countOnSources(
  client: pg.PoolClient,
  tenantId: string,
  target: Resource,
  action: string,
  doc: Record<string, unknown>,
  previousStatus: string,
  actor: ActorRef,
): Promise<Consumed[]> {
  const consumed: Consumed[] = [];
  for (const { source, conversion } of conversionsInto.get(target.name) ?? []) {
    const counting = conversion.countedBy === action;
    const giving =
      conversion.uncountedBy === action &&
      statesAfter(target, conversion.countedBy, [conversion.uncountedBy]).has(previousStatus);
    const sourceId = doc[conversion.link];
    if ((!counting && !giving) || typeof sourceId !== 'string') continue;
    const deltas = new Map<string, bigint>();
    for (const line of (doc.lines as Line[] | undefined) ?? []) {
      const from = line.source_line_id;
      if (typeof from !== 'string') continue;
      const q = toMillionths(line.quantity) * (counting ? 1n : -1n);
      deltas.set(from, (deltas.get(from) ?? 0n) + q);
    }
    if (!deltas.size) continue;
    const reservation = await countOn(
      client,
      tenantId,
      source,
      sourceId,
      conversion.counts,
      deltas,
      actor,
    );
    if (reservation) consumed.push(reservation);
  }
  return consumed;
}

async function countOn(
  client: pg.PoolClient,
  tenantId: string,
  source: Resource,
  id: string,
  counted: string,
  deltas: Map<string, bigint>,
  actor: ActorRef,
): Promise<Consumed | undefined> {
  const { rows } = await client.query<{ version: number; status: string; was: { lines: Line[] } }>(
    named(
      `SELECT t.version, t.status, to_jsonb(t) AS was FROM ${source.table} t
      WHERE t.tenant_id = $1 AND t.id = $2 FOR NO KEY UPDATE`,
      [tenantId, id],
    ),
  );
  const snapshot = rows[0];
  if (!snapshot) return undefined;
  const lines = snapshot.was.lines.map((line) => ({ ...line }));
  for (const [lineId, delta] of deltas) {
    const line = lines.find((l) => l.id === lineId);
    if (!line)
      throw new ApiError(
        'requete_invalide',
        `A line names source line ${lineId}, which is not a line of ${source.name.replace(/_/g, ' ')} ${id}.`,
        {
          issues: [
            {
              location: 'json',
              path: 'lines',
              code: 'source_line',
              message: 'its source line is not on the document it names',
            },
          ],
        },
      );
    const before = toMillionths(String(line[counted] ?? '0'));
    const quantity = toMillionths(line.quantity);
    if (before + delta > quantity)
      throw new ApiError(
        'quantite_depassee',
        `Line ${lineId} has ${fromMillionths(quantity - before)} left; ${fromMillionths(delta)} was asked.`,
        {
          line_id: lineId,
          remaining: fromMillionths(quantity - before),
          requested: fromMillionths(delta),
        },
      );
    line[counted] = fromMillionths(before + delta < 0n ? 0n : before + delta);
  }
  const goods = await goodsProducts(client, tenantId, lines);
  const status = follow(source, snapshot.status, lines, goods);
  await client
    .query(
      named(
        `UPDATE ${source.table} SET lines = $3::jsonb, status = $4, version = version + 1, updated_at = now()
          WHERE tenant_id = $1 AND id = $2`,
        [tenantId, id, JSON.stringify(lines), status],
      ),
    )
    .catch((e) => mapWriteError(e, 'write'));
  const taken: Snapshot = { resource: source, id, ...snapshot };
  await recordSettled(client, tenantId, [taken], actor, FOLLOW_ACTION);
  const reservation = source.reservation;
  const reserved =
    reservation?.consumedBy === counted &&
    statesAfter(source, reservation.on, reservation.release).has(snapshot.status);
  return reserved ? { source, doc: { ...snapshot.was, lines }, deltas } : undefined;
}

/** Whether the progress rule that leads to `status` holds for the record's lines now. */
export async function goodsAllow(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  id: string,
  status: string,
): Promise<boolean> {
  const rule = resource.progress?.find((r) => r.status === status);
  if (!rule) return false;
  const { rows } = await client.query<{ lines: Line[] }>(
    named(`SELECT t.lines FROM ${resource.table} t WHERE t.tenant_id = $1 AND t.id = $2`, [
      tenantId,
      id,
    ]),
  );
  const lines = rows[0]?.lines ?? [];
  return fullyCounted(rule, lines, await goodsProducts(client, tenantId, lines));
}

/** Every line the rule looks at (its goods, or all) fully counted in its quantity. */
function fullyCounted(
  rule: ProgressRule,
  lines: readonly Line[],
  goods: ReadonlySet<string>,
): boolean {
  return lines
    .filter((l) => !rule.goods || goods.has(String(l.product_id)))
    .every((l) => toMillionths(String(l[rule.when] ?? '0')) >= toMillionths(l.quantity));
}

/** The status the progress rules give the lines (SPEC §18), applied until none applies. */
export function follow(
  source: Resource,
  status: string,
  lines: readonly Line[],
  goods: ReadonlySet<string>,
): string {
  let current = status;
  for (let step = 0; step < 8; step++) {
    const before = current;
    for (const rule of source.progress ?? []) {
      const full = fullyCounted(rule, lines, goods);
      if (current === rule.after && full) current = rule.status;
      else if (current === rule.status && !full) current = rule.after;
    }
    if (current === before) return current;
  }
  return current;
}
