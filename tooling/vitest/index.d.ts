// The global setup provides `inject('erpTestDatabase')`; its type comes with the preset.
import type {} from '@erp/db/testing';
import type { ViteUserConfig } from 'vitest/config';

/** The config of a package whose tests use a real PostgreSQL; `overrides` are merged in. */
export function databaseTests(overrides?: ViteUserConfig): ViteUserConfig;
