import { goodsSeedReads, goodsSeedWalks } from '../goods';
import {
  accountingSeed,
  accountingSeedDates,
  accountingSeedReads,
  accountingSeedWalks,
} from './accounting';
import { assetsSeed } from './assets';
import type { SeedDates, SeedOverrides, SeedReads, SeedWalks } from './context';
import { crmSeed } from './crm';
import { hrSeed } from './hr';
import { inventorySeed } from './inventory';
import { productionSeed } from './production';
import { projectsSeed } from './projects';
import { purchasingSeed } from './purchasing';
import { salesSeed } from './sales';
import { supportSeed } from './support';

export {
  DEMO_YEAR,
  type SeedContext,
  type SeedDates,
  type SeededRecord,
  type SeedOverride,
  type SeedOverrides,
  type SeedReads,
  type SeedWalks,
} from './context';

/**
 * Every module's seed overrides. A module's file (`<module>.ts`) exports an object keyed by
 * resource name; resources without one get the generic sample body.
 */
export const seedOverrides: SeedOverrides = {
  ...salesSeed,
  ...crmSeed,
  ...hrSeed,
  ...projectsSeed,
  ...accountingSeed,
  ...assetsSeed,
  ...productionSeed,
  ...supportSeed,
  ...purchasingSeed,
  ...inventorySeed,
};

/** What overrides read beyond their references (see SeedReads), and what moves stock after. */
export const seedReads: SeedReads = Object.fromEntries(
  [...new Set([...Object.keys(accountingSeedReads), ...Object.keys(goodsSeedReads)])].map(
    (name) => [name, [...(accountingSeedReads[name] ?? []), ...(goodsSeedReads[name] ?? [])]],
  ),
);

/** Lifecycle walks that differ from the generic one (see SeedWalks). */
export const seedWalks: SeedWalks = { ...accountingSeedWalks, ...goodsSeedWalks };

/** Resources whose records are made in the order of this date field (see SeedDates). */
export const seedDates: SeedDates = { ...accountingSeedDates };
