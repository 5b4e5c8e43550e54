import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, routes } from '@erp/contract';
import { browserSecurityHeaders } from '@erp/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context';
import { staticDocument } from '../http/static-document';
import { scalarStandaloneBundle } from './scalar-bundle';

/**
 * Scalar's browser build: one self-contained script, served by the portal itself. Bundled
 * (dist/main.js: the image, `pnpm start`) it is the copy the build put beside the bundle; run
 * from source, the package's own file.
 */
export function scalarBundlePath(moduleDir = import.meta.dirname): string {
  return path.basename(moduleDir) === 'dist'
    ? path.join(moduleDir, 'api-reference', 'scalar.js')
    : scalarStandaloneBundle(moduleDir);
}
const SCRIPT = 'text/javascript; charset=utf-8';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * What the renderer is told. Everything that would reach another host is off: the default
 * fonts (a font CDN), telemetry, the AI agent (its registry lives behind a proxy), the
 * developer toolbar, and "Generate MCP" (Scalar shows it on localhost unless told otherwise:
 * it sends the document to Scalar's dashboard). The "try it" client stays: it calls this same
 * origin.
 */
const CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  metaData: { title: 'ERP business API reference' },
};

/**
 * The page's own script (a file, since the CSP admits no inline script): renders the served
 * `openapi.json`, found beside the page's URL so that the reference works under any prefix,
 * and removes the loading notice once the document is rendered (a thousand operations take
 * seconds to process in the browser).
 */
const INIT_SCRIPT = `'use strict';
(function () {
  var configuration = ${JSON.stringify(CONFIGURATION)};
  configuration.url = new URL('openapi.json', document.baseURI).href;
  configuration.onLoaded = function () {
    var notice = document.getElementById('loading');
    if (notice) notice.remove();
  };
  window.Scalar.createApiReference('#reference', configuration);
})();
`;

interface Asset {
  name: string;
  bytes: Uint8Array;
}

interface Reference {
  page: string;
  assets: Map<string, Asset>;
}

/** Names a file by its content, so it can be cached forever and a new version gets a new URL. */
function hashedName(stem: string, bytes: Uint8Array): string {
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 16);
  return `${stem}.${hash}.js`;
}

async function loadReference(): Promise<Reference> {
  const scalar = new Uint8Array(await readFile(scalarBundlePath()));
  const init = new TextEncoder().encode(INIT_SCRIPT);
  const assets = [
    { name: hashedName('scalar', scalar), bytes: scalar },
    { name: hashedName('reference', init), bytes: init },
  ];
  // Relative URLs (the page is /api/v1/docs): docs/… and openapi.json sit beside it.
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ERP business API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<p id="loading" role="status">Loading the API reference… (a large document: this can take a while)</p>
<noscript><p>This reference needs JavaScript. The document itself is <a href="openapi.json">openapi.json</a>.</p></noscript>
<div id="reference"></div>
${assets.map((asset) => `<script src="docs/${asset.name}"></script>`).join('\n')}
</body>
</html>
`;
  return { page, assets: new Map(assets.map((asset) => [asset.name, asset])) };
}

/**
 * `GET /api/v1/docs` (SPEC §15): Scalar over the served `openapi.json`, webhooks included,
 * under the console's strict CSP but for injected styles. Its two scripts have content-hashed
 * names under `/api/v1/docs/`, cached for good; the page itself is revalidated, so a deploy
 * shows at once. Everything is read and hashed on the first request, not at start-up.
 */
export function registerApiReference(app: OpenAPIHono<AppEnv>): void {
  let reference: Promise<Reference> | undefined;
  const load = () => {
    reference ??= loadReference().catch((error: unknown) => {
      reference = undefined;
      throw error;
    });
    return reference;
  };
  const securityHeaders = browserSecurityHeaders({ inlineStyles: true });
  const servePage = staticDocument(async () => new TextEncoder().encode((await load()).page), {
    contentType: 'text/html; charset=utf-8',
    cacheControl: 'no-cache',
  });
  const serveAsset = new Map<string, (c: Context) => Promise<Response>>();

  app.use(routes.apiReference.path, securityHeaders);
  app.openapi(routes.apiReference, (c) => servePage(c) as never);
  app.get(`${routes.apiReference.path}/:asset`, securityHeaders, async (c) => {
    const name = c.req.param('asset');
    const asset = (await load()).assets.get(name);
    if (!asset) throw new ApiError('introuvable', `No file ${name} in the API reference.`);
    let serve = serveAsset.get(name);
    if (!serve) {
      serve = staticDocument(() => asset.bytes, { contentType: SCRIPT, cacheControl: IMMUTABLE });
      serveAsset.set(name, serve);
    }
    return serve(c);
  });
}
