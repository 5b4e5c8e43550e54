import {
  type AccountSetting,
  ApiError,
  catalogue,
  centsNumber,
  divideRounded,
  fromMillionths,
  type Resource,
  type StockEffect,
  type StockPlace,
  toMillionths,
} from '@erp/contract';
import type pg from 'pg';
import type { ActorRef } from '../../http/context';
import { createPostedEntry } from '../books/posting';
import { mapWriteError } from '../pg-errors';
import { type LocationInfo, locationsOf, mainLocations } from './places';
import { type ProductInfo, productsOf } from './products';
import { named } from './sql';
import { statesAfter } from './states';

/** Whether an action moves stock, or moves it back (SPEC §18). */
export function movesStockOnAction(resource: Resource, action: string): boolean {
  return (resource.stock ?? []).some((e) => e.action === action || e.reverse === action);
}

/** One movement at an internal location, as `erp_stock_apply` takes it (migration 0035). */
interface Move {
  product_id: string;
  warehouse_id: string;
  location_id: string;
  quantity: string;
  unit_cost_cents?: string;
  value_cents?: number;
  takes_value_of?: number;
  source_type: string;
  source_id: string;
  source_line_id?: string;
  method: string;
  standard_cost_cents: string | null;
  fallback_cost_cents: string | null;
}

type Line = Record<string, unknown>;

/**
 * The stock engine (SPEC §18): after a stock document's action, the movements its declared
 * effect makes (or, on its reverse action from the state the effect led to, the opposite of what
 * it wrote), applied by the database (`erp_stock_apply`: levels locked in one order, never below
 * zero, valued by the product's method), then posted: the value between the stock account and
 * the effect's counterpart, through the books' engine, so the stock accounts always equal the
 * stock's value.
 */
export async function stockOnAction(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  action: string,
  doc: Record<string, unknown>,
  previousStatus: string,
  actor: ActorRef,
): Promise<void> {
  for (const effect of resource.stock ?? []) {
    if (effect.action === action) {
      const planned = await plan(client, tenantId, resource, effect, doc);
      if (!planned.moves.length) continue;
      const values = await apply(client, tenantId, planned.moves);
      const date = String(doc[effect.date] ?? today());
      await post(client, tenantId, resource, effect, doc, planned, values, date, actor);
    } else if (
      effect.reverse === action &&
      statesAfter(resource, effect.action, [effect.reverse]).has(previousStatus)
    ) {
      const moves = await opposite(client, tenantId, resource, doc);
      if (!moves.length) continue;
      const values = await apply(client, tenantId, moves);
      const plan = { moves, priced: [] };
      await post(client, tenantId, resource, effect, doc, plan, values, today(), actor);
    }
  }
}

const today = () => new Date().toISOString().slice(0, 10);

interface Plan {
  moves: Move[];
  /** An incoming move's value at its source line's price (a receipt), by move index. */
  priced: (bigint | undefined)[];
}

async function plan(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  effect: StockEffect,
  doc: Record<string, unknown>,
): Promise<Plan> {
  const lines: Line[] = effect.lines ? ((doc[effect.lines] as Line[] | undefined) ?? []) : [doc];
  const moving = (line: Line) => !effect.unless || line[effect.unless] !== false;
  const products = await productsOf(client, tenantId, lines);
  const stocked = lines
    .map((line, index) => ({ line, index, product: products.get(String(line.product_id)) }))
    .filter(
      (l): l is { line: Line; index: number; product: ProductInfo } =>
        l.product?.product_type === 'stockable' && moving(l.line),
    );
  if (!stocked.length) return { moves: [], priced: [] };
  const places = await placesOf(
    client,
    tenantId,
    effect,
    doc,
    stocked.map((s) => s.line),
  );
  const prices =
    effect.cost === 'source_line' ? await sourcePrices(client, tenantId, resource, doc) : undefined;
  const moves: Move[] = [];
  const priced: (bigint | undefined)[] = [];
  for (const { line, index, product } of stocked) {
    const path = effect.lines ? `${effect.lines}.${index}.quantity` : 'quantity';
    let quantity = toMillionths(String(line.quantity ?? '0'));
    if (quantity === 0n || (quantity < 0n && !effect.signed))
      throw invalid(path, 'zero_quantity', 'A stock movement moves a quantity other than zero.');
    let from = places.resolve(effect.from, line, index);
    let to = places.resolve(effect.to, line, index);
    if (quantity < 0n) {
      [from, to] = [to, from];
      quantity = -quantity;
    }
    if (from && to && from.id === to.id)
      throw invalid(
        effect.lines ? `${effect.lines}.${index}` : 'to_location_id',
        'same_location',
        'A stock movement goes from one location to another.',
      );
    const base = {
      product_id: product.id,
      source_type: resource.name,
      source_id: String(doc.id),
      ...(effect.lines ? { source_line_id: String(line.id) } : {}),
      method: product.valuation_method ?? 'fifo',
      standard_cost_cents: product.cost_price_cents,
      fallback_cost_cents: product.cost_price_cents,
    };
    let out: number | undefined;
    if (from) {
      moves.push({
        ...base,
        warehouse_id: from.warehouse_id!,
        location_id: from.id,
        quantity: fromMillionths(-quantity),
      });
      priced.push(undefined);
      out = moves.length;
    }
    if (to) {
      const unit =
        prices?.get(String(line.source_line_id)) ??
        (effect.cost === 'field' &&
        line.unit_cost_cents !== null &&
        line.unit_cost_cents !== undefined
          ? String(line.unit_cost_cents)
          : undefined);
      moves.push({
        ...base,
        warehouse_id: to.warehouse_id!,
        location_id: to.id,
        quantity: fromMillionths(quantity),
        ...(out ? { takes_value_of: out } : unit !== undefined ? { unit_cost_cents: unit } : {}),
      });
      priced.push(
        prices && unit !== undefined
          ? divideRounded(quantity * toMillionths(unit), 1_000_000n * 1_000_000n)
          : undefined,
      );
    }
  }
  return { moves, priced };
}

function invalid(path: string, code: string, message: string): ApiError {
  return new ApiError('requete_invalide', message, {
    issues: [{ location: 'json', path, code, message }],
  });
}

/**
 * Where each side of the effect is, for each line: an internal location (stock is held there),
 * or null (the outside). A named location that is not internal is the outside for a stock move,
 * and refused where a warehouse's stock is meant.
 */
async function placesOf(
  client: pg.PoolClient,
  tenantId: string,
  effect: StockEffect,
  doc: Record<string, unknown>,
  lines: readonly Line[],
) {
  const ids: string[] = [];
  const warehouses: string[] = [];
  for (const place of [effect.from, effect.to]) {
    if (place === 'outside') continue;
    if ('location' in place && place.location && typeof doc[place.location] === 'string')
      ids.push(doc[place.location] as string);
    if ('lineLocation' in place && place.lineLocation)
      for (const line of lines)
        if (typeof line[place.lineLocation] === 'string')
          ids.push(line[place.lineLocation] as string);
    if ('warehouse' in place && typeof doc[place.warehouse] === 'string')
      warehouses.push(doc[place.warehouse] as string);
  }
  const mains = await mainLocations(client, tenantId, warehouses);
  const locations = await locationsOf(client, tenantId, [...ids, ...mains.values()]);
  return {
    resolve(place: StockPlace, line: Line, index: number): LocationInfo | null {
      if (place === 'outside') return null;
      if (!('warehouse' in place)) {
        const location = locations.get(String(doc[place.location]));
        return location?.usage === 'internal' && location.warehouse_id ? location : null;
      }
      const own = place.lineLocation ? line[place.lineLocation] : undefined;
      const named =
        typeof own === 'string' ? own : place.location ? doc[place.location] : undefined;
      const path =
        typeof own === 'string'
          ? `lines.${index}.${place.lineLocation}`
          : (place.location ?? place.warehouse);
      const id = typeof named === 'string' ? named : mains.get(String(doc[place.warehouse]));
      if (!id)
        throw invalid(
          place.warehouse,
          'no_location',
          `Warehouse ${String(doc[place.warehouse] ?? '(none)')} has no active internal location to hold stock.`,
        );
      const location = locations.get(id);
      if (location?.usage !== 'internal' || !location.warehouse_id)
        throw invalid(
          path,
          'not_internal',
          'Stock is held only at internal locations of a warehouse.',
        );
      return location;
    },
  };
}

/**
 * A receipt's prices: each line of the document it was made from (its order), at its unit
 * price in company currency (the order's rate, else the latest on or before today).
 */
async function sourcePrices(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  doc: Record<string, unknown>,
): Promise<Map<string, string>> {
  const source = catalogue.find((r) =>
    r.conversions?.some((c) => c.target === resource.name && typeof doc[c.link] === 'string'),
  );
  const link = source?.conversions?.find((c) => c.target === resource.name)?.link;
  if (!source || !link) return new Map();
  const { rows } = await client.query<{
    lines: Line[];
    currency: string | null;
    company: string;
    rate: string | null;
  }>(
    named(
      `SELECT t.lines, t.currency, s.company_currency AS company,
            (SELECT er.rate::text FROM exchange_rates er JOIN currencies c ON c.tenant_id = er.tenant_id AND c.id = er.currency_id
              WHERE er.tenant_id = $1 AND c.code = t.currency AND er.rate_date <= current_date
              ORDER BY er.rate_date DESC LIMIT 1) AS rate
       FROM ${source.table} t LEFT JOIN accounting_settings s ON s.tenant_id = t.tenant_id
      WHERE t.tenant_id = $1 AND t.id = $2`,
      [tenantId, doc[link]],
    ),
  );
  const row = rows[0];
  if (!row) return new Map();
  let rate = 1_000_000n;
  if (row.currency && row.company && row.currency !== row.company) {
    if (!row.rate)
      throw new ApiError(
        'taux_de_change_manquant',
        `No exchange rate of ${row.currency} on or before today.`,
        {
          currency: row.currency,
          date: new Date().toISOString().slice(0, 10),
        },
      );
    rate = toMillionths(row.rate);
  }
  return new Map(
    row.lines
      .filter((l) => l.unit_price_cents !== null && l.unit_price_cents !== undefined)
      .map((l) => [
        String(l.id),
        // price × rate, exact to the millionth of a cent
        fromMillionths(BigInt(l.unit_price_cents as number) * rate),
      ]),
  );
}

/** The opposite of every entry the document wrote: what leaves at the method's cost, what enters back at its value. */
async function opposite(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  doc: Record<string, unknown>,
): Promise<Move[]> {
  const { rows } = await client.query<{
    product_id: string;
    warehouse_id: string;
    location_id: string;
    quantity: string;
    value_cents: string;
    source_line_id: string | null;
    method: string | null;
    cost: string | null;
  }>(
    named(
      `SELECT l.product_id, l.warehouse_id, l.location_id, l.quantity::text AS quantity, l.value_cents::text AS value_cents,
            l.source_line_id, p.valuation_method AS method, p.cost_price_cents::text AS cost
       FROM stock_ledger l JOIN products p ON p.tenant_id = l.tenant_id AND p.id = l.product_id
      WHERE l.tenant_id = $1 AND l.source_type = $2 AND l.source_id = $3 ORDER BY l.id`,
      [tenantId, resource.name, doc.id],
    ),
  );
  return rows.map((e) => ({
    product_id: e.product_id,
    warehouse_id: e.warehouse_id,
    location_id: e.location_id,
    quantity: fromMillionths(-toMillionths(e.quantity)),
    ...(toMillionths(e.quantity) < 0n ? { value_cents: centsNumber(-BigInt(e.value_cents)) } : {}),
    source_type: resource.name,
    source_id: String(doc.id),
    ...(e.source_line_id ? { source_line_id: e.source_line_id } : {}),
    method: e.method ?? 'fifo',
    standard_cost_cents: e.cost,
    fallback_cost_cents: e.cost,
  }));
}

async function apply(client: pg.PoolClient, tenantId: string, moves: Move[]): Promise<bigint[]> {
  const { rows } = await client
    .query<{ values: string }>(
      named('SELECT erp_stock_apply($1, $2::jsonb)::text AS values', [
        tenantId,
        JSON.stringify(moves),
      ]),
    )
    .catch((e) => mapWriteError(e, 'write'));
  return (JSON.parse(rows[0]!.values) as (number | string)[]).map((v) => BigInt(v));
}

/**
 * The entry of a stock action: each move's value on its warehouse's stock account (the
 * warehouse's own, else Settings → Accounting's), the opposite on the counterpart (the
 * document's account field, else the setting); a receipt's counterpart at its order's prices,
 * the difference from the stock's value to `expense` (a standard cost). Nothing when it nets to
 * zero (a transfer between warehouses on one account).
 */
async function post(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  effect: StockEffect,
  doc: Record<string, unknown>,
  planned: Plan,
  values: readonly bigint[],
  date: string,
  actor: ActorRef,
): Promise<void> {
  const warehouses = [...new Set(planned.moves.map((m) => m.warehouse_id))];
  const field = effect.counterpart.field ? doc[effect.counterpart.field] : undefined;
  const { rows } = await client.query<{
    company: string | null;
    accounts: Partial<Record<AccountSetting, string | null>> | null;
    warehouses: Record<string, string | null>;
    journal: string | null;
  }>(
    named(
      `SELECT s.company_currency AS company,
            json_build_object('stock', s.stock_account_id, 'stock_received_not_billed', s.stock_received_not_billed_account_id,
              'cost_of_goods_sold', s.cost_of_goods_sold_account_id, 'expense', s.expense_account_id) AS accounts,
            (SELECT coalesce(json_object_agg(w.id, w.stock_account_id), '{}') FROM warehouses w
              WHERE w.tenant_id = $1 AND w.id = ANY($2::uuid[])) AS warehouses,
            (SELECT j.id FROM journals j WHERE j.tenant_id = $1 AND j.journal_type = 'miscellaneous' AND j.status = 'actif'
              ORDER BY j.code LIMIT 1) AS journal
       FROM (SELECT 1) one LEFT JOIN accounting_settings s ON s.tenant_id = $1`,
      [tenantId, warehouses],
    ),
  );
  const ctx = rows[0]!;
  const setting = (name: AccountSetting): string => {
    const account = ctx.accounts?.[name];
    if (!account)
      throw new ApiError('compte_invalide', `Settings → Accounting names no ${name} account.`, {
        setting: name,
        reason: 'unset',
      });
    return account;
  };
  const net = new Map<string, bigint>();
  const add = (account: string, cents: bigint) =>
    net.set(account, (net.get(account) ?? 0n) + cents);
  let total = 0n;
  let pricedTotal = 0n;
  let pricedValue = 0n;
  planned.moves.forEach((move, i) => {
    const value = values[i]!;
    add(ctx.warehouses[move.warehouse_id] ?? setting('stock'), value);
    const priced = planned.priced[i];
    if (priced === undefined) total += value;
    else {
      pricedTotal += priced;
      pricedValue += value;
    }
  });
  const counterpart = typeof field === 'string' ? field : setting(effect.counterpart.setting);
  add(counterpart, -total - pricedTotal);
  if (pricedTotal !== pricedValue) add(setting('expense'), pricedTotal - pricedValue);
  const lines = [...net]
    .filter(([, cents]) => cents !== 0n)
    .map(([account_id, cents]) => ({
      account_id,
      label: `${String(doc.number ?? '')} stock`.trim(),
      debit_cents: cents > 0n ? centsNumber(cents) : 0,
      credit_cents: cents < 0n ? centsNumber(-cents) : 0,
    }));
  if (!lines.length) return;
  if (!ctx.journal)
    throw new ApiError('compte_invalide', 'No active miscellaneous journal to post in.', {
      setting: 'journal.miscellaneous',
      reason: 'unset',
    });
  await createPostedEntry(
    client,
    tenantId,
    {
      journal_id: ctx.journal,
      entry_date: date,
      entry_type: 'standard',
      reference: doc.number ?? null,
      description: `${resource.name.replace(/_/g, ' ')} ${String(doc.number ?? '')} stock`.trim(),
      currency: ctx.company ?? 'EUR',
      source_type: resource.name,
      source_id: doc.id,
      lines,
    },
    actor,
  );
}
