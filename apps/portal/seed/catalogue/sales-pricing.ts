import type { SeedContext, SeededRecord } from './context';
import { all, byId, nth } from './helpers';

type Line = Record<string, unknown>;

/**
 * Price lists of a French company selling in Europe: the n-th record's code and name, the
 * currency it is in, and its level against the products' list price. The seed walks the n-th
 * record to `n % 3` (draft, published, archived), so the lists are ordered for that: last year's
 * lists archived, this year's published, next year's and special ones in draft.
 */
export const PRICE_LISTS: { code: string; name: string; currency: string; factor: number }[] = [
  { code: 'RETAIL-EUR-27', name: 'Retail 2027', currency: 'EUR', factor: 1.03 },
  { code: 'RETAIL-EUR', name: 'Retail 2026', currency: 'EUR', factor: 1 },
  { code: 'RETAIL-EUR-25', name: 'Retail 2025', currency: 'EUR', factor: 0.97 },
  { code: 'DIST-EUR-27', name: 'Distributors 2027', currency: 'EUR', factor: 0.7 },
  { code: 'WHOLESALE-EUR', name: 'Wholesale 2026', currency: 'EUR', factor: 0.8 },
  { code: 'WHOLESALE-EUR-25', name: 'Wholesale 2025', currency: 'EUR', factor: 0.78 },
  { code: 'PUBLIC-EUR-27', name: 'Public sector 2027', currency: 'EUR', factor: 0.85 },
  { code: 'KEYACC-EUR', name: 'Key accounts 2026', currency: 'EUR', factor: 0.75 },
  { code: 'WINTER-SALE-26', name: 'Winter sale 2026', currency: 'EUR', factor: 0.85 },
  { code: 'EXPORT-USD-27', name: 'Export Americas 2027', currency: 'USD', factor: 1.1 },
  { code: 'EXPORT-GBP', name: 'Export United Kingdom 2026', currency: 'GBP', factor: 0.9 },
  { code: 'EXPORT-CHF-25', name: 'Export Switzerland 2025', currency: 'CHF', factor: 1.02 },
];
export const factorOf = (list: SeededRecord) =>
  PRICE_LISTS.find((p) => p.code === list.code)?.factor ?? 1;

/** The currency record with that ISO code, or the first one (the seed's currencies may be few). */
export function currencyRecord(ctx: SeedContext, code: string): SeededRecord | undefined {
  const currencies = all(ctx, 'currency');
  return currencies.find((c) => c.code === code) ?? currencies[0];
}
export const currencyCode = (ctx: SeedContext, currencyId: unknown) =>
  String(byId(ctx, 'currency', currencyId)?.code ?? 'EUR');

/** Published price lists that have prices, in creation order. */
export function pricedLists(ctx: SeedContext): SeededRecord[] {
  const items = all(ctx, 'price_list_item');
  const lists = all(ctx, 'price_list').filter((l) => items.some((i) => i.price_list_id === l.id));
  const published = lists.filter((l) => l.status === 'publie');
  return published.length ? published : lists;
}

/** The list a customer buys at: its own, else its group's, else a published one. */
export function listFor(ctx: SeedContext, customer: SeededRecord | undefined, k: number) {
  const lists = pricedLists(ctx);
  const group = byId(ctx, 'customer_group', customer?.customer_group_id);
  return (
    lists.find((l) => l.id === customer?.price_list_id) ??
    lists.find((l) => l.id === group?.price_list_id) ??
    nth(lists, k)
  );
}

/**
 * Priced lines from a price list: `count` of its products, each at the list's price for the
 * quantity (quantity breaks apply), before tax (a tax-inclusive list's price is converted).
 */
export function linesFromList(
  ctx: SeedContext,
  list: SeededRecord | undefined,
  count: number,
  quantityOf: (i: number) => number,
): Line[] {
  if (!list) return [];
  const items = all(ctx, 'price_list_item').filter((i) => i.price_list_id === list.id);
  const products = [...new Set(items.map((i) => String(i.product_id)))];
  return Array.from({ length: Math.min(count, products.length) }, (_, i) => {
    const productId = products[(ctx.n + i) % products.length]!;
    const product = byId(ctx, 'product', productId);
    const breaks = items
      .filter((item) => item.product_id === productId)
      .sort((a, b) => Number(a.min_quantity) - Number(b.min_quantity));
    const quantity = Math.max(quantityOf(i), Number(breaks[0]?.min_quantity ?? 1));
    const item = breaks.filter((b) => Number(b.min_quantity) <= quantity).at(-1) ?? breaks[0]!;
    const taxRate = vatRate(product?.tax_rate);
    const price = Number(item.unit_price_cents);
    return {
      product_id: productId,
      description: String(product?.name ?? 'Article'),
      quantity: String(quantity),
      unit_of_measure: product?.unit_of_measure ?? 'Unit',
      unit_price_cents: list.prices_include_tax
        ? Math.round(price / (1 + Number(taxRate) / 100))
        : price,
      tax_rate: taxRate,
    };
  });
}

/** French VAT rates; a product whose rate is not one of them is sold at the standard rate. */
const VAT_RATES = ['20', '10', '5.5', '2.1', '0'];
export function vatRate(rate: unknown): string {
  const value = rate === undefined || rate === null ? '' : String(Number(rate));
  return VAT_RATES.includes(value) ? value : '20';
}
