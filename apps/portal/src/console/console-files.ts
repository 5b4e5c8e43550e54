import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** One file of the console's build, by its URL path (`/assets/index-3f2a.js`). */
export interface ConsoleFile {
  urlPath: string;
  contentType: string;
  /** Text formats, worth compressing. */
  compressible: boolean;
  /** Its bytes, from the disk. */
  read(): Promise<Uint8Array>;
}

export interface ConsoleFiles {
  /** The file served at `urlPath`, if the build has one; undefined when there is no build. */
  find(urlPath: string): Promise<ConsoleFile | undefined>;
  /** Whether the build is there (it has an index.html). */
  built(): Promise<boolean>;
}

const TYPES: Record<string, [type: string, compressible: boolean]> = {
  '.html': ['text/html; charset=utf-8', true],
  '.js': ['text/javascript; charset=utf-8', true],
  '.mjs': ['text/javascript; charset=utf-8', true],
  '.css': ['text/css; charset=utf-8', true],
  '.map': ['application/json', true],
  '.json': ['application/json', true],
  '.webmanifest': ['application/manifest+json', true],
  '.txt': ['text/plain; charset=utf-8', true],
  '.svg': ['image/svg+xml', true],
  '.ico': ['image/x-icon', true],
  '.png': ['image/png', false],
  '.jpg': ['image/jpeg', false],
  '.jpeg': ['image/jpeg', false],
  '.gif': ['image/gif', false],
  '.webp': ['image/webp', false],
  '.avif': ['image/avif', false],
  '.woff': ['font/woff', false],
  '.woff2': ['font/woff2', false],
};

/**
 * The console's built files under `dir`. Only what a listing of `dir` finds is ever served, by
 * exact URL path: a request path never becomes a filesystem path, so `..`, encoded slashes or
 * symbolic links cannot reach outside it (symbolic links and dotfiles are not listed).
 * With `cache` (production) the listing is made once, at first use; without it (development)
 * on every call, so that a rebuild shows on reload.
 */
export function consoleFiles(dir: string, cache: boolean): ConsoleFiles {
  let listing: Map<string, ConsoleFile> | undefined;

  async function list(): Promise<Map<string, ConsoleFile>> {
    if (listing) return listing;
    const files = await listFiles(dir);
    // An absent build is not remembered: one that appears later is found without a restart.
    if (cache && files.size) listing = files;
    return files;
  }

  return {
    find: async (urlPath) => (await list()).get(urlPath),
    built: async () => (await list()).has('/index.html'),
  };
}

async function listFiles(dir: string): Promise<Map<string, ConsoleFile>> {
  const files = new Map<string, ConsoleFile>();
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return files; // No build (yet).
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, absolute).split(path.sep);
    if (relative.some((part) => part.startsWith('.'))) continue;
    const urlPath = `/${relative.join('/')}`;
    const [contentType, compressible] = TYPES[path.extname(entry.name).toLowerCase()] ?? [
      'application/octet-stream',
      false,
    ];
    files.set(urlPath, { urlPath, contentType, compressible, read: () => readFile(absolute) });
  }
  return files;
}
