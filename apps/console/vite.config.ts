import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built to dist/, which the portal serves at `/` (apps/portal). `pnpm dev` watches into its data
// directory instead (CONSOLE_DIR, the same variable the portal serves from), so that a developer's
// dev session never rewrites the dist/ that tests and images use. No inline script: the CSP
// (packages/http/src/browser-security.ts) refuses them.
export default defineConfig({
  plugins: [react()],
  build: { outDir: process.env.CONSOLE_DIR || 'dist', emptyOutDir: true, sourcemap: true },
});
