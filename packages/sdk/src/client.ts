import { ApiError, decodeError } from './errors.js';
import { isIdempotentPost } from './idempotent-posts.gen.js';
import { backoffDelay, MAX_SERVER_DELAY_MS, serverDelay, sleep } from './retry.js';
import type { Session } from './session.js';
import type { ShapedArgs, ShapedItem, ShapedSuccess } from './shape.js';
import type { ListPathOf, ParseAs, Parsed, RawBody, Result, Routes } from './types.js';

interface CommonOptions {
  /** The portal's origin, e.g. `https://acme.example.com` (`''`: the page's own). */
  baseUrl: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Per attempt (default 30 000). */
  timeoutMs?: number;
  /** First backoff step; later ones double (default 500). */
  backoffMs?: number;
}

/** An integrator's client: an API key, bound to its tenant. */
export interface ApiKeyOptions extends CommonOptions {
  /** `service_live_…` from Settings → API keys. */
  apiKey: string;
  /** The tenant's slug or id (X-Tenant-ID). */
  tenantId: string;
  session?: never;
}

/** A person's client (the console): access tokens from a `Session`, the tenant chosen later. */
export interface SessionOptions extends CommonOptions {
  session: Session;
  /** The tenant's slug or id (X-Tenant-ID); `setTenant` changes it. */
  tenantId?: string;
  apiKey?: never;
}

export type ClientOptions = ApiKeyOptions | SessionOptions;

/**
 * A method's calls over `Ops` (path → operation); `select` and `embed` in the query shape the
 * result's type (shape.ts), and `parseAs: 'bytes'` makes it a `Uint8Array` (a file's answer).
 * `S` and `E` take no constraint: the query's own type refuses unknown names, and a constraint
 * naming `Ops[P]` would be evaluated over every path of the method before `P` is inferred.
 */
export type Call<Ops> = <
  P extends keyof Ops & string,
  S extends string = never,
  E extends string = never,
  A extends ParseAs = 'auto',
>(
  path: P,
  ...init: ShapedArgs<Ops[P], S, E, A>
) => Promise<Result<Parsed<A, ShapedSuccess<Ops[P], S, E>>>>;

/**
 * A client typed with `R`: the whole API's `routes` (index.ts) or one module's
 * (`sales.ts`, `accounting.ts`…; several: `createClient<SalesRoutes & AccountingRoutes>`).
 */
export interface Client<R extends Routes> {
  get: Call<R['get']>;
  post: Call<R['post']>;
  put: Call<R['put']>;
  patch: Call<R['patch']>;
  delete: Call<R['delete']>;
  /** The tenant of the next requests (X-Tenant-ID); `undefined` sends none. */
  setTenant(tenantId: string | undefined): void;
  /** Every page of a list, following `next_cursor`; stops after an error result. */
  pages<P extends ListPathOf<R>, S extends string = never, E extends string = never>(
    path: P,
    ...init: ShapedArgs<R['list'][P], S, E>
  ): AsyncGenerator<Result<ShapedSuccess<R['list'][P], S, E>>, void>;
  /** Every row of a list across pages; throws the `ApiError` of a failed page. */
  paginate<P extends ListPathOf<R>, S extends string = never, E extends string = never>(
    path: P,
    ...init: ShapedArgs<R['list'][P], S, E>
  ): AsyncGenerator<ShapedItem<R['list'][P], S, E>, void>;
}

type AnyInit = {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  raw?: RawBody;
  parseAs?: ParseAs;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

// What fetch sends (DOM's BodyInit, or undici's under @types/node alone).
type FetchBody = Exclude<NonNullable<Parameters<typeof fetch>[1]>['body'], undefined>;

// Methods whose replay cannot act twice; a POST joins them when it carries an Idempotency-Key.
const IDEMPOTENT_METHODS = new Set(['GET', 'PUT', 'DELETE']);

/**
 * A client typed with `R` (every path, parameter, body and answer from the contract); the
 * entries bind `R`: `createClient` of index.ts (the whole API) or of a module's file.
 */
export function createClient<R extends Routes>(options: ClientOptions): Client<R> {
  const { apiKey, session, maxRetries = 2, timeoutMs = 30_000, backoffMs = 500 } = options;
  if ((apiKey === undefined) === (session === undefined))
    throw new TypeError('createClient: give either apiKey or session, not both.');
  let tenantId = options.tenantId;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // Concurrent 401s share one refresh.
  let refreshing: Promise<boolean> | undefined;

  /** After a 401 with `used`: whether a newer token is ready (another request may have renewed it). */
  async function renewed(used: string | undefined): Promise<boolean> {
    if (!session) return false;
    const current = await session.accessToken();
    if (current !== undefined && current !== used) return true;
    // A session that throws is a session that could not refresh: requests return, never throw.
    refreshing ??= session
      .refresh()
      .catch(() => false)
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  }

  async function request(
    method: string,
    path: string,
    init: AnyInit = {},
  ): Promise<Result<unknown>> {
    const url = baseUrl + fillPath(path, init.path) + queryString(init.query);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (tenantId !== undefined) headers['x-tenant-id'] = tenantId;
    let body: FetchBody = null;
    if (init.raw !== undefined) {
      // A file, as is: its media type from the call's headers, else a Blob's own.
      const type = typeof Blob !== 'undefined' && init.raw instanceof Blob ? init.raw.type : '';
      headers['content-type'] = type || 'application/octet-stream';
      body = init.raw as FetchBody;
    } else if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    const parseAs = init.parseAs ?? 'auto';
    const replayable =
      IDEMPOTENT_METHODS.has(method) || (method === 'POST' && isIdempotentPost(path));
    // One key for every attempt: that is what makes a replayed POST safe.
    if (method === 'POST' && replayable) headers['idempotency-key'] = crypto.randomUUID();
    const given = lowerCased(init.headers);
    let reauthorized = false;

    for (let attempt = 0; ; attempt++) {
      const token = session ? await session.accessToken() : apiKey;
      if (token === undefined) delete headers.authorization;
      else headers.authorization = `Bearer ${token}`;
      Object.assign(headers, given);
      const outcome = await attemptOnce(
        fetchImpl,
        url,
        { method, headers, body },
        init.signal,
        timeoutMs,
        parseAs === 'bytes',
      );
      let error: ApiError;
      let wait: number | undefined;
      if ('error' in outcome) {
        error = outcome.error;
        if (error.code !== 'requete_annulee' && replayable) wait = backoffDelay(attempt, backoffMs);
      } else {
        const { response, text, bytes } = outcome;
        if (response.ok) return parseSuccess(response, text, bytes, parseAs);
        error = decodeError(response.status, text);
        // An expired access token: renewed once, then the same attempt again (not a retry).
        if (error.code === 'jeton_invalide' && !reauthorized && !given.authorization) {
          reauthorized = true;
          if (await renewed(token)) {
            attempt--;
            continue;
          }
        }
        if (response.status === 429 || (response.status >= 500 && replayable)) {
          wait = serverDelay(response) ?? backoffDelay(attempt, backoffMs);
        }
        if (attempt >= maxRetries || wait === undefined || wait > MAX_SERVER_DELAY_MS) {
          return { error, response };
        }
      }
      if (attempt >= maxRetries || wait === undefined) return { error };
      if (!(await sleep(wait, init.signal))) {
        return { error: new ApiError('requete_annulee', 'Aborted while waiting to retry.') };
      }
    }
  }

  async function* pages(path: string, init: AnyInit = {}): AsyncGenerator<Result<unknown>, void> {
    let cursor = init.query?.cursor as string | undefined;
    do {
      const page = await request('GET', path, { ...init, query: { ...init.query, cursor } });
      yield page;
      if (page.error) return;
      cursor = (page.data as { next_cursor: string | null }).next_cursor ?? undefined;
    } while (cursor);
  }

  async function* paginate(path: string, init?: AnyInit): AsyncGenerator<unknown, void> {
    for await (const page of pages(path, init)) {
      if (page.error) throw page.error;
      yield* (page.data as { data: unknown[] }).data;
    }
  }

  const call = (method: string) => (path: string, init?: AnyInit) => request(method, path, init);
  return {
    setTenant(id: string | undefined) {
      tenantId = id;
    },
    get: call('GET'),
    post: call('POST'),
    put: call('PUT'),
    patch: call('PATCH'),
    delete: call('DELETE'),
    pages,
    paginate,
  } as unknown as Client<R>;
}

type Outcome = { response: Response; text: string; bytes?: Uint8Array } | { error: ApiError };

/** One attempt, body read included, so a connection cut mid-body is a network error too. */
async function attemptOnce(
  fetchImpl: typeof fetch,
  url: string,
  init: { method: string; headers: Record<string, string>; body: FetchBody },
  signal: AbortSignal | undefined,
  timeoutMs: number,
  asBytes = false,
): Promise<Outcome> {
  if (signal?.aborted) return { error: new ApiError('requete_annulee', 'Aborted.') };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forward = () => controller.abort();
  signal?.addEventListener('abort', forward, { once: true });
  try {
    const response = await fetchImpl(url, { ...init, signal: controller.signal });
    if (!asBytes || !response.ok) return { response, text: await response.text() };
    return { response, text: '', bytes: new Uint8Array(await response.arrayBuffer()) };
  } catch (cause) {
    if (signal?.aborted) return { error: new ApiError('requete_annulee', 'Aborted.') };
    if (timedOut)
      return { error: new ApiError('delai_depasse', `No answer within ${timeoutMs} ms.`) };
    return {
      error: new ApiError('erreur_reseau', cause instanceof Error ? cause.message : String(cause)),
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}

function parseSuccess(
  response: Response,
  text: string,
  bytes: Uint8Array | undefined,
  parseAs: ParseAs,
): Result<unknown> {
  if (bytes) return { data: bytes, response };
  if (parseAs === 'text') return { data: text, response };
  if (text === '' || !response.headers.get('content-type')?.includes('json')) {
    return { data: text === '' ? undefined : text, response };
  }
  try {
    return { data: JSON.parse(text), response };
  } catch {
    return {
      error: new ApiError('reponse_invalide', 'The body is not valid JSON.', {}, response.status),
      response,
    };
  }
}

function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

// encodeURIComponent rather than URLSearchParams: a space must not become `+`.
function queryString(query: Record<string, unknown> = {}): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null)
        pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(item))}`);
    }
  }
  return pairs.length ? `?${pairs.join('&')}` : '';
}

function lowerCased(headers: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
