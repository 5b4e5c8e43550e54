import type { SeedOverrides } from './context';
import { salesDocumentsSeed } from './sales-documents';
import { salesSettingsSeed } from './sales-settings';

/** The sales module's seed: settings first, then the documents that use them. */
export const salesSeed: SeedOverrides = { ...salesSettingsSeed, ...salesDocumentsSeed };
