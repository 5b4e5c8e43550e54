import { defineConfig } from 'vitest/config';

// The serving tests upload megabytes over real sockets: seconds under a full parallel run.
export default defineConfig({ test: { testTimeout: 30_000 } });
