import {
  ApiError,
  type ConversionDeclaration,
  catalogue,
  fromMillionths,
  type Resource,
  toMillionths,
} from '@erp/contract';
import type pg from 'pg';
import type { ActorRef } from '../../http/context';
import { notFound } from '../records-read';
import { insertRecord, type WrittenRecord } from '../records-write';
import { goodsProducts } from './products';
import { named } from './sql';

const byName = new Map(catalogue.map((r) => [r.name, r]));

/** What a conversion's body may ask: a part of some lines. */
export interface ConversionRequest {
  lines?: { line_id: string; quantity: string }[];
}

type Line = Record<string, unknown> & { id: string; quantity: string };

/** A line's quantity less what its targets counted, in millionths. */
export function remainingOf(line: Line, counted: string): bigint {
  return toMillionths(line.quantity) - toMillionths(String(line[counted] ?? '0'));
}

/**
 * Makes a draft of the conversion's target of what remains on the source (SPEC §18), in the
 * caller's transaction: the source row locked while it is read (a conversion and a counting
 * target action never read it at once), the quantities checked exactly, the draft written by
 * the engine (its number, history and `created` event). Answers the draft.
 */
export async function convert(
  client: pg.PoolClient,
  tenantId: string,
  source: Resource,
  id: string,
  name: string,
  request: ConversionRequest,
  actor: ActorRef,
  shortcut: { basis?: string; from: readonly string[]; action: string } | undefined = undefined,
): Promise<WrittenRecord> {
  const basis = shortcut?.basis;
  const conversion = source.conversions?.find((c) => c.name === name);
  if (!conversion) throw new Error(`${source.name} has no conversion ${name}`);
  const target = byName.get(conversion.target)!;
  const { rows } = await client.query<{ row: Record<string, unknown> }>(
    named(
      `SELECT to_jsonb(t) AS row FROM ${source.table} t WHERE t.tenant_id = $1 AND t.id = $2 FOR NO KEY UPDATE`,
      [tenantId, id],
    ),
  );
  const row = rows[0]?.row;
  if (!row) throw notFound(source, id);
  const from: readonly string[] = shortcut?.from ?? conversion.from;
  const action = shortcut?.action ?? name;
  if (!from.includes(String(row.status)))
    throw new ApiError(
      'transition_invalide',
      `Cannot ${action.replace(/_/g, ' ')} a ${source.name.replace(/_/g, ' ')} in status ${String(row.status)}.`,
      { from: row.status, action, allowed_from: from },
    );
  const lines = (row.lines as Line[]) ?? [];
  const goods = await goodsProducts(client, tenantId, lines);
  const isGoods = (line: Line) => goods.has(String(line.product_id));
  const eligible = lines.filter((line) => !conversion.goods || isGoods(line));
  const available = (line: Line): bigint => {
    // A shortcut's basis: a goods line gives what that other count reached (an invoice of what
    // was delivered), less what this conversion's count took.
    const reached =
      basis && isGoods(line)
        ? toMillionths(String(line[basis] ?? '0'))
        : toMillionths(line.quantity);
    return reached - toMillionths(String(line[conversion.counts] ?? '0'));
  };
  const taken = pick(eligible, available, request);
  const body = targetBody(conversion, target, row, taken);
  const missing = Object.entries(target.fields)
    .filter(([field, spec]) => spec.required && body[field] === undefined)
    .map(([field]) => field);
  if (missing.length)
    throw new ApiError(
      'requete_invalide',
      `The ${source.name.replace(/_/g, ' ')} names no ${missing.join(', ')}, which a ${target.name.replace(/_/g, ' ')} needs: set it first.`,
      {
        issues: missing.map((path) => ({
          location: 'json',
          path,
          code: 'required_by_target',
          message: `the ${target.name.replace(/_/g, ' ')} needs it`,
        })),
      },
    );
  return insertRecord(client, target, tenantId, body, actor);
}

/** The lines and quantities taken: the request's (checked), else every remaining quantity. */
function pick(
  eligible: Line[],
  available: (line: Line) => bigint,
  request: ConversionRequest,
): { line: Line; quantity: bigint }[] {
  if (!request.lines) {
    const all = eligible
      .map((line) => ({ line, quantity: available(line) }))
      .filter((t) => t.quantity > 0n);
    if (!all.length)
      throw new ApiError('quantite_depassee', 'Nothing remains to take on any line.', {
        line_id: null,
        remaining: '0',
        requested: null,
      });
    return all;
  }
  const seen = new Set<string>();
  return request.lines.map((asked, i) => {
    const line = eligible.find((l) => l.id === asked.line_id.toLowerCase());
    if (!line || seen.has(line.id))
      throw new ApiError('requete_invalide', `Line ${i + 1} names no line it may take.`, {
        issues: [
          {
            location: 'json',
            path: `lines.${i}.line_id`,
            code: line ? 'duplicate' : 'not_found',
            message: line ? 'this line is taken twice' : 'not a line of the document it may take',
          },
        ],
      });
    seen.add(line.id);
    const quantity = toMillionths(asked.quantity);
    const remaining = available(line);
    if (quantity <= 0n || quantity > remaining)
      throw new ApiError(
        'quantite_depassee',
        `Line ${line.id} has ${fromMillionths(remaining < 0n ? 0n : remaining)} left; ${asked.quantity} was asked.`,
        {
          line_id: line.id,
          remaining: fromMillionths(remaining < 0n ? 0n : remaining),
          requested: fromMillionths(quantity),
        },
      );
    return { line, quantity };
  });
}

/**
 * The draft's body: the fields both documents have (the party, the warehouse, the currency…),
 * the link to the source, the day's dates, the due date from the payment term, the declared
 * defaults; each line what the target's lines have of the source line, its quantity taken and
 * its `source_line_id`.
 */
function targetBody(
  conversion: ConversionDeclaration,
  target: Resource,
  source: Record<string, unknown>,
  taken: { line: Line; quantity: bigint }[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of Object.keys(target.fields)) {
    if (field === 'lines' || field === conversion.link) continue;
    const value = source[field];
    if (value !== null && value !== undefined) body[field] = value;
  }
  body[conversion.link] = source.id;
  const today = new Date().toISOString().slice(0, 10);
  for (const field of conversion.today ?? []) body[field] = today;
  if (conversion.due) {
    const due = new Date(`${today}T00:00:00Z`);
    due.setUTCDate(due.getUTCDate() + Number(source[conversion.due.days] ?? 0));
    body[conversion.due.field] = due.toISOString().slice(0, 10);
  }
  Object.assign(body, conversion.defaults);
  const lineFields = target.fields.lines!.type === 'lines' ? target.fields.lines!.fields : {};
  body.lines = taken.map(({ line, quantity }) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(lineFields))
      if (line[key] !== null && line[key] !== undefined) out[key] = line[key];
    out.quantity = fromMillionths(quantity);
    out.source_line_id = line.id;
    return out;
  });
  return body;
}
