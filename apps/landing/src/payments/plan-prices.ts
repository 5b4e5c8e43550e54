import { z } from 'zod';

/** A price id, a lookup key or a variant id (Lemon Squeezy's are numbers, read as text). */
const PriceKeySchema = z.string().min(1).max(255);
const PlanCodeSchema = z.string().min(1).max(64);

/**
 * `PAYMENT_PLAN_PRICES`: a JSON object `{"<price id or lookup key>": "<plan code>"}`; unset is
 * `{}` (every purchase is then ignored, which main.ts says at start-up).
 */
export const PlanPricesSchema = z
  .string()
  .optional()
  .transform((text, ctx) => {
    if (text === undefined) return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object {"<price>": "<plan code>"}' });
      return z.NEVER;
    }
  })
  .pipe(z.record(PriceKeySchema, PlanCodeSchema, 'must map price ids to plan codes'));

export type PlanPrices = z.infer<typeof PlanPricesSchema>;

/** The price an event names: its id (a Paddle price, a Lemon Squeezy variant) and lookup key (Stripe). */
export interface PriceRef {
  id?: string | number | null;
  lookup_key?: string | null;
}

/** How an adapter turns the price an event names into a plan. */
export interface PlanResolver {
  /** The plan the mapping gives the price (its id first, then its lookup key); undefined: unmapped. */
  planFor(price: PriceRef | null | undefined): string | undefined;
}

const PLAN_CODE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * The mapping as adapters read it. In development (`identity`), a price the mapping lacks is
 * read as a plan code of its own (SPEC §8: each plan's code is its own lookup key), so a local
 * checkout works without configuration; the portal refuses a code it does not know.
 */
export function planResolver(prices: PlanPrices, options: { identity: boolean }): PlanResolver {
  const mapping = new Map(Object.entries(prices));
  return {
    planFor(price) {
      const id = price?.id === null || price?.id === undefined ? undefined : String(price.id);
      const lookupKey = price?.lookup_key ?? undefined;
      for (const key of [id, lookupKey]) {
        const plan = key === undefined ? undefined : mapping.get(key);
        if (plan) return plan;
      }
      if (!options.identity) return undefined;
      return [lookupKey, id].find((key) => key !== undefined && PLAN_CODE.test(key));
    },
  };
}
