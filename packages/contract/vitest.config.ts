import { defineConfig } from 'vitest/config';

// Generating the whole document takes seconds while every other suite runs on two cores.
export default defineConfig({ test: { testTimeout: 120_000 } });
