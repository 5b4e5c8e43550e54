import type { SeedContext, SeededRecord } from './context';

/**
 * Lookups over the records already seeded, for overrides that must name the right record (the
 * 411000 account, the sales journal, the period a date falls in) rather than the n-th one.
 */

/** The records of a resource already made (empty when it has none yet). */
export function recordsOf(ctx: SeedContext, resource: string): readonly SeededRecord[] {
  return ctx.records.get(resource) ?? [];
}

/**
 * The k-th record (cycling) of those that pass `test`; when none does (a smaller seed), the k-th
 * record of the resource, so the override still names something that exists.
 */
export function findRecord(
  ctx: SeedContext,
  resource: string,
  test: (record: SeededRecord) => boolean,
  k = ctx.n,
): SeededRecord {
  const matching = recordsOf(ctx, resource).filter(test);
  return matching.length ? matching[k % matching.length]! : ctx.pick(resource, k);
}

/** The record whose `field` equals `value`, or undefined. */
export function recordWith(
  ctx: SeedContext,
  resource: string,
  field: string,
  value: unknown,
): SeededRecord | undefined {
  return recordsOf(ctx, resource).find((r) => r[field] === value);
}

/**
 * The ledger account with this number (the installed chart's or the seed's), else one of the
 * same sub-type, else one of the same class (its first digit: a smaller seed has fewer
 * accounts), else any.
 */
export function accountId(ctx: SeedContext, code: string): string {
  // The books take postings only on active accounts that are not groups (SPEC §17): an
  // archived or group account of that code is passed over for a usable one.
  const usable = recordsOf(ctx, 'account').filter((a) => a.status === 'actif' && !a.is_group);
  const subType = ACCOUNT_SUB_TYPES[code];
  const found =
    usable.find((a) => a.code === code) ??
    (subType ? usable.find((a) => a.sub_type === subType) : undefined) ??
    usable.find((a) => String(a.code).startsWith(code.slice(0, 1)));
  return found?.id ?? ctx.pick('account', 0).id;
}

const ACCOUNT_SUB_TYPES: Record<string, string> = {
  '411000': 'receivable',
  '401000': 'payable',
  '512000': 'bank',
  '530000': 'cash',
  '445710': 'tax',
  '445660': 'tax',
  '218300': 'fixed_asset',
  '281830': 'depreciation',
};

/** A journal of this type, in use if one is. */
export function journalOf(ctx: SeedContext, type: string, k = 0): SeededRecord {
  const ofType = recordsOf(ctx, 'journal').filter((j) => j.journal_type === type);
  const active = ofType.filter((j) => j.status === 'actif');
  const pool = active.length ? active : ofType;
  return pool.length ? pool[k % pool.length]! : ctx.pick('journal', k);
}

/** The accounting period a day falls in, or null when none is seeded for it. */
export function periodOf(ctx: SeedContext, day: string): string | null {
  const period = recordsOf(ctx, 'accounting_period').find(
    (p) => String(p.start_date) <= day && day <= String(p.end_date),
  );
  return period?.id ?? null;
}

/** Whole days from `from` to `to` (YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The last day of the month of `day`. */
export function endOfMonth(day: string): string {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** `months` months after `day` (YYYY-MM-DD), clamped to the end of the month. */
export function monthsAfter(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, last))).toISOString().slice(0, 10);
}

/** Rounds half away from zero, as the engine rounds line amounts. */
export function roundCents(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value) + 1e-9);
}

/** The record of `resource` with this id, or undefined. */
export const byId = (ctx: SeedContext, resource: string, id: unknown) =>
  recordsOf(ctx, resource).find((r) => r.id === id);

/** A test for `findRecord`: the record is in one of these statuses. */
export const inStatus =
  (...statuses: string[]) =>
  (r: SeededRecord) =>
    statuses.includes(String(r.status));

/** A moment of a day in Paris (UTC+1 in winter, which the demo's dates are in), as RFC 3339. */
export const at = (day: string, hour: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + (hour - 1) * 3_600_000).toISOString();

/** `minutes` after an RFC 3339 instant. */
export const minutesAfter = (timestamp: string, minutes: number) =>
  new Date(Date.parse(timestamp) + Math.round(minutes) * 60_000).toISOString();

/** The day (YYYY-MM-DD, UTC) of an RFC 3339 instant. */
export const dayOf = (timestamp: string) => new Date(timestamp).toISOString().slice(0, 10);

/** A number as an exact decimal string (at most the 6 places numeric(18,6) keeps). */
export const dec = (value: number) => String(Number(value.toFixed(6)));
