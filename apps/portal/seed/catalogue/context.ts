import type { Faker } from '@faker-js/faker';

/** The demo company's year: its books are installed for it and the next, its documents dated in it. */
export const DEMO_YEAR = 2026;

/** A record the seed created, as the API returned it. */
export type SeededRecord = Record<string, unknown> & { id: string };

/** What a resource's seed override sees while the n-th record of that resource is made. */
export interface SeedContext {
  /** Which record of the resource this is (0-based); the same n gives the same values. */
  n: number;
  /** How many records of the resource the seed makes. */
  count: number;
  /**
   * The status the record will be in once the seed has walked its lifecycle (its initial one
   * first), so that dates and fields that only make sense in some states agree with it (a won
   * opportunity's closed date, a paid commission's payment date); undefined without a lifecycle.
   */
  status: string | undefined;
  /** Faker seeded for this resource and n. */
  faker: Faker;
  /** The records already created, by resource name (dependency order: referenced ones first). */
  records: ReadonlyMap<string, readonly SeededRecord[]>;
  /** The record of `resource` this one goes with: cycles through them with n (or `k`). */
  pick(resource: string, k?: number): SeededRecord;
  /** A day `offsetDays` after `from` (YYYY-MM-DD), to keep a document's dates in order. */
  daysAfter(from: string, offsetDays: number): string;
}

/**
 * Fields to set on top of the generic sample body, so that a record agrees with what it refers
 * to (a delivery ships its order's lines to its order's customer) and its dates are in order.
 */
export type SeedOverride = (ctx: SeedContext) => Record<string, unknown>;

/** Overrides by resource name. */
export type SeedOverrides = Readonly<Record<string, SeedOverride>>;

/**
 * Resources an override reads besides those its resource refers to, by resource name: the seed
 * makes them first (a bank statement's balances add up payments it does not refer to).
 */
export type SeedReads = Readonly<Record<string, readonly string[]>>;

/**
 * The lifecycle actions the n-th record of a resource goes through, where the generic walk
 * would not give the books what they need (most invoices issued, most payments posted).
 */
export type SeedWalks = Readonly<Record<string, (n: number) => readonly string[]>>;

/**
 * Date fields by resource name: the seed plans all records of such a resource, then makes them
 * in the order of that date, so documents are numbered and posted chronologically.
 */
export type SeedDates = Readonly<Record<string, string>>;
