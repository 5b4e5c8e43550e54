import type { SeedContext, SeededRecord } from './context';

/** Helpers the module seeds share to find the records theirs must agree with. */

/** The records of a resource made so far (none yet: an empty list). */
export const all = (ctx: SeedContext, resource: string): readonly SeededRecord[] =>
  ctx.records.get(resource) ?? [];

/** The n-th of the records matching `keep`, or the n-th of all when none does. */
export function pickWhere(
  ctx: SeedContext,
  resource: string,
  keep: (r: SeededRecord) => boolean,
  k = ctx.n,
): SeededRecord {
  const matching = all(ctx, resource).filter(keep);
  return matching.length ? matching[k % matching.length]! : ctx.pick(resource, k);
}

export const byId = (ctx: SeedContext, resource: string, id: unknown) =>
  all(ctx, resource).find((r) => r.id === id);

export const inStatus =
  (...statuses: string[]) =>
  (r: SeededRecord) =>
    statuses.includes(String(r.status));

/** A moment of a day in Paris (UTC+1 in winter, which the demo's dates are in), as RFC 3339. */
export const at = (day: string, hour: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + (hour - 1) * 3_600_000).toISOString();
export const minutesAfter = (timestamp: string, minutes: number) =>
  new Date(Date.parse(timestamp) + Math.round(minutes) * 60_000).toISOString();
export const dayOf = (timestamp: string) => new Date(timestamp).toISOString().slice(0, 10);

/** A decimal as the API writes it, without trailing zeros. */
export const dec = (value: number) => String(Number(value.toFixed(6)));
