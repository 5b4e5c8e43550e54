import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built to dist/, which the portal serves at `/` (apps/portal). No inline script: the CSP
// (packages/http/src/browser-security.ts) refuses them.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
