import type { SeedContext, SeededRecord } from './context';

/** The records of a resource made so far (none when the resource is not in the catalogue). */
export const all = (ctx: SeedContext, resource: string): readonly SeededRecord[] =>
  ctx.records.get(resource) ?? [];

/** The k-th of `pool` (cycling), or undefined when it is empty. */
export const nth = <T>(pool: readonly T[], k: number): T | undefined =>
  pool.length ? pool[k % pool.length] : undefined;

export const byId = (ctx: SeedContext, resource: string, id: unknown) =>
  id ? all(ctx, resource).find((r) => r.id === id) : undefined;

/** A record's address as a document's shipping address. */
export function addressOf(record: SeededRecord, prefix: string): Record<string, unknown> {
  return Object.fromEntries(
    ['street', 'street2', 'postal_code', 'city', 'state', 'country_code'].map((part) => [
      `shipping_${part}`,
      record[`${prefix}${part}`] ?? null,
    ]),
  );
}

/** Last day of the month `day` falls in. */
export function endOfMonth(ctx: SeedContext, day: string): string {
  return ctx.daysAfter(`${nextMonth(day)}-01`, -1);
}
function nextMonth(day: string): string {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}
/** `day` plus `months` calendar months (day of month kept, at most 28 in the seed). */
export function monthsAfter(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The n-th entry of a fixed list, cycling. */
export function named<T extends readonly unknown[]>(list: readonly T[], n: number): T {
  return list[n % list.length]!;
}

/** A name as it appears in an e-mail address or a domain: no accents, no spaces. */
export const slug = (name: unknown) =>
  String(name)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
