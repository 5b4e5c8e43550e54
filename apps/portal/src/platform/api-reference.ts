import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, routes } from '@erp/contract';
import { browserSecurityHeaders } from '@erp/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context';
import { staticDocument } from '../http/static-document';
import type { OpenApiParts } from './api-reference-documents';
import { referencePage } from './api-reference-page';
import { REFERENCE_SCRIPT } from './api-reference-script';
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

async function loadReference(parts: OpenApiParts): Promise<Reference> {
  const scalar = new Uint8Array(await readFile(scalarBundlePath()));
  const init = new TextEncoder().encode(REFERENCE_SCRIPT);
  const assets = [
    { name: hashedName('scalar', scalar), bytes: scalar },
    { name: hashedName('reference', init), bytes: init },
  ];
  // Relative URLs (the page is /api/v1/docs): docs/…, openapi.json and openapi/… sit beside it.
  const page = referencePage(parts.index(), {
    scalar: `docs/${assets[0]!.name}`,
    reference: `docs/${assets[1]!.name}`,
  });
  return { page, assets: new Map(assets.map((asset) => [asset.name, asset])) };
}

/**
 * `GET /api/v1/docs` (SPEC §15): an index of the document's parts, and Scalar over one part at
 * a time (`?module=sales`: a tenth of the whole, which Scalar took ~11 s to render), under the
 * console's strict CSP but for injected styles. Its two scripts have content-hashed names
 * under `/api/v1/docs/`, cached for good; the page itself is revalidated, so a deploy shows at
 * once. Everything is read and hashed on the first request, not at start-up.
 */
export function registerApiReference(app: OpenAPIHono<AppEnv>, parts: OpenApiParts): void {
  let reference: Promise<Reference> | undefined;
  const load = () => {
    reference ??= loadReference(parts).catch((error: unknown) => {
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
