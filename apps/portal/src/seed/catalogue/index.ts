import type { SeedOverrides } from './context';
import { inventorySeed } from './inventory';
import { purchasingSeed } from './purchasing';
import { salesSeed } from './sales';

export type { SeedContext, SeededRecord, SeedOverride, SeedOverrides } from './context';

/**
 * Every module's seed overrides. A module's file (`<module>.ts`) exports an object keyed by
 * resource name; resources without one get the generic sample body.
 */
export const seedOverrides: SeedOverrides = { ...salesSeed, ...purchasingSeed, ...inventorySeed };
