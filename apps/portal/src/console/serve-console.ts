import { ApiError } from '@erp/contract';
import type { Context } from 'hono';
import { staticDocument } from '../http/static-document';
import type { ConsoleFile, ConsoleFiles } from './console-files';

/** Hashed file names (Vite's `assets/`): a new build gets new names, so they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else, index.html first: revalidated on every use, so a deploy shows at once. */
const REVALIDATE = 'no-cache';

/**
 * Answers a GET or HEAD outside `/api/` from the console's build: a file of the build by its
 * path; otherwise, to a client that takes HTML, `index.html`, so that the console's own routes
 * (`/settings/api-keys`, `/records/sales-orders/…`) deep-link; otherwise 404. Without a build,
 * 503 `console_indisponible`. With `cache` (production) each file is served by a
 * `staticDocument` (read once, ETag and 304, br/gzip compressed once); without it, from disk.
 */
export function consoleServer(files: ConsoleFiles, cache: boolean) {
  const documents = new Map<string, (c: Context) => Promise<Response>>();

  function send(c: Context, file: ConsoleFile): Promise<Response> {
    const options = {
      contentType: file.contentType,
      cacheControl: file.urlPath.startsWith('/assets/') ? IMMUTABLE : REVALIDATE,
      compress: file.compressible,
    };
    if (!cache) return sendFromDisk(c, file, options);
    let serve = documents.get(file.urlPath);
    if (!serve) {
      serve = staticDocument(() => file.read(), options);
      documents.set(file.urlPath, serve);
    }
    return serve(c);
  }

  return async function serveConsole(c: Context): Promise<Response> {
    if (!(await files.built())) {
      throw new ApiError(
        'console_indisponible',
        'The console is not built: run `pnpm --filter @erp/console build` (or `pnpm dev`).',
      );
    }
    const file = await files.find(c.req.path);
    if (file) return send(c, file);
    if (!c.req.path.startsWith('/assets/') && acceptsHtml(c.req.header('accept'))) {
      const index = await files.find('/index.html');
      if (index) return send(c, index);
    }
    throw new ApiError('introuvable', `No file ${c.req.path} in the console.`);
  };
}

async function sendFromDisk(
  c: Context,
  file: ConsoleFile,
  options: { contentType: string; cacheControl: string },
): Promise<Response> {
  let bytes: Uint8Array;
  try {
    bytes = await file.read();
  } catch {
    // Listed, then gone: a rebuild (Vite empties dist/ first) is under way.
    throw new ApiError('introuvable', `No file ${file.urlPath} in the console.`);
  }
  c.header('Content-Type', options.contentType);
  c.header('Cache-Control', options.cacheControl);
  return c.body(new Uint8Array(bytes), 200);
}

/** Whether an Accept header takes HTML: no header, `text/html`, `text/*` or `*\/*`. */
function acceptsHtml(accept: string | undefined): boolean {
  if (accept === undefined) return true;
  return accept
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .some((type) => type === 'text/html' || type === 'text/*' || type === '*/*');
}
