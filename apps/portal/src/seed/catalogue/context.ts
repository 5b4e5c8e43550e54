import type { Faker } from '@faker-js/faker';

/** A record the seed created, as the API returned it. */
export type SeededRecord = Record<string, unknown> & { id: string };

/** What a resource's seed override sees while the n-th record of that resource is made. */
export interface SeedContext {
  /** Which record of the resource this is (0-based); the same n gives the same values. */
  n: number;
  /**
   * The status the record is walked to once created (the seed mixes statuses), undefined for a
   * resource without a lifecycle: so that dates and quantities such as `actual_start` agree
   * with it (a work order still planned has not started).
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
