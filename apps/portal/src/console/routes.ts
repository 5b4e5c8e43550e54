import path from 'node:path';
import { browserSecurityHeaders } from '@erp/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import type { AppEnv } from '../http/context';
import { consoleFiles } from './console-files';
import { consoleServer } from './serve-console';

/**
 * Where the console's build is when CONSOLE_DIR is not set. Bundled (dist/main.js: the image,
 * `pnpm start`) it is dist/console, where the portal's build copies it; run from source (tests)
 * it is the console package's own dist/. `pnpm dev` sets CONSOLE_DIR to its data directory,
 * where the console's `vite build --watch` writes.
 */
export function defaultConsoleDir(moduleDir = import.meta.dirname): string {
  return path.basename(moduleDir) === 'dist'
    ? path.join(moduleDir, 'console')
    : path.resolve(moduleDir, '../../../console/dist');
}

/**
 * The console (SPEC §14) at `/`: every GET and HEAD the API routes did not take, with the
 * browser security headers (strict CSP, no framing). Registered after every API route, and
 * `/api/` is left to the JSON 404, so an API typo never answers HTML.
 */
export function registerConsoleRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const cache = deps.env.NODE_ENV === 'production';
  const dir = path.resolve(deps.env.CONSOLE_DIR ?? defaultConsoleDir());
  const serveConsole = consoleServer(consoleFiles(dir, cache), cache);
  const securityHeaders = browserSecurityHeaders();
  app.get(
    '/*',
    async function leaveApiToApi(c, next) {
      if (c.req.path === '/api' || c.req.path.startsWith('/api/')) return c.notFound();
      await next();
    },
    securityHeaders,
    serveConsole,
  );
}
