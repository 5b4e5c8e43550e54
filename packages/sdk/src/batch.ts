import type { Client } from './client.js';
import type { components } from './gen/shared.gen.js';
import type { PathOf, RequestInit, Result, Routes, Success } from './types.js';

type BatchMethod = 'get' | 'post' | 'patch' | 'delete';

/** Routes a batch refuses (`unsupported_operation`): everything that is not a business resource's. */
type NotBatchable =
  | `/api/v1/${'auth' | 'settings' | 'internal' | 'public' | 'batch'}/${string}`
  | `/api/v1/${'me' | 'health' | 'ready' | 'openapi.json' | 'batch'}`
  | `/settings/${string}`;

/** The paths of `M` a batch can run: business resources' list, get, create, patch, delete, actions. */
export type BatchPathOf<R extends Routes, M extends BatchMethod> = Exclude<
  PathOf<R, M>,
  NotBatchable
>;

declare const answers: unique symbol;

/** One operation of a batch; its type also carries what it answers. */
export interface BatchStep<T> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  if_match?: string;
  /** Type only: the body this operation answers. */
  readonly [answers]?: T;
}

type StepInit<O, M> = Omit<RequestInit<O>, 'headers' | 'signal'> &
  (M extends 'patch' ? { /** The `If-Match` it would send alone. */ ifMatch?: string } : object);
type StepArgs<O, M> =
  object extends StepInit<O, M> ? [init?: StepInit<O, M>] : [init: StepInit<O, M>];
type Answer<O> = [Success<O>] extends [undefined] ? null : Success<O>;

function stepOf(method: BatchMethod) {
  return (
    path: string,
    init: {
      path?: Record<string, string | number>;
      query?: Record<string, unknown>;
      body?: unknown;
      ifMatch?: string;
    } = {},
  ): BatchStep<unknown> => ({
    method: method.toUpperCase() as BatchStep<unknown>['method'],
    path: fillPath(path, init.path) + queryString(init.query),
    ...(init.body === undefined ? {} : { body: init.body }),
    ...(init.ifMatch === undefined ? {} : { if_match: init.ifMatch }),
  });
}

type Step<R extends Routes, M extends BatchMethod> = <P extends BatchPathOf<R, M>>(
  path: P,
  ...init: StepArgs<R[M][P & keyof R[M]], M>
) => BatchStep<Answer<R[M][P & keyof R[M]]>>;

/** `op` typed with `R`: each entry binds it to its routes. */
export interface BatchOps<R extends Routes> {
  get: Step<R, 'get'>;
  post: Step<R, 'post'>;
  patch: Step<R, 'patch'>;
  delete: Step<R, 'delete'>;
}

/**
 * The operations of a batch, typed like the client's calls: `op.post(path, {path, query,
 * body})` checks the path, parameters and body against the contract, and the batch's result
 * for it is typed as that route's answer. Untyped here; the entries give it their routes.
 */
export const anyOp = {
  get: stepOf('get'),
  post: stepOf('post'),
  patch: stepOf('patch'),
  delete: stepOf('delete'),
};

/**
 * `{{index.field}}`: the value of `field` (a dotted path, `lines.0.product_id`) in what the
 * earlier operation `index` answered. Used as a whole body value it takes that value with its
 * JSON type, so `T` says what the field holds (`ref<number>(0, 'payment_terms_days')`); inside
 * a longer string, or in the path, it stands for its text.
 */
export function ref<T = string>(index: number, field: string): NoInference<T> {
  return `{{${index}.${field}}}` as NoInference<T>;
}

/** `T`, but not a place to infer it from (TypeScript 5.4's NoInfer, for older compilers too). */
type NoInference<T> = [T][T extends unknown ? 0 : never];

/** What a batch answers: one result per step, each typed as its route's answer. */
export type BatchResults<T extends readonly BatchStep<unknown>[]> = {
  results: {
    [K in keyof T]: T[K] extends BatchStep<infer A>
      ? { status: number; etag: string | null; body: A }
      : never;
  };
};

export interface BatchOptions {
  /** Makes the whole batch safe to send again: the same key and operations replay its answer. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * Runs the steps in one transaction (`POST /api/v1/batch`): all are kept or, at the first
 * failure, none, and the error is that step's, with `error.params.index`. The client retries a
 * batch like any idempotent POST, with one Idempotency-Key for every attempt (yours, or one it
 * makes), so a batch retried after a lost answer is never applied twice.
 */
export async function batch<R extends Routes, const T extends readonly BatchStep<unknown>[]>(
  client: Client<R>,
  steps: T,
  options: BatchOptions = {},
): Promise<Result<BatchResults<T>>> {
  const operations = steps.map(
    ({ method, path, body, if_match }) =>
      ({
        method,
        path,
        ...(body === undefined ? {} : { body }),
        ...(if_match === undefined ? {} : { if_match }),
      }) as components['schemas']['BatchOperation'],
  );
  // Any client: the batch route is the platform's, whichever module the client is typed with.
  const post = client.post as unknown as (path: string, init: object) => Promise<Result<unknown>>;
  const result = await post('/api/v1/batch', {
    body: { operations },
    ...(options.idempotencyKey ? { headers: { 'idempotency-key': options.idempotencyKey } } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return result as Result<BatchResults<T>>;
}

const REFERENCES = /(\{\{\d+\.[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*\}\})/;

/** A value for a path or query, percent-encoded but for the references in it, which the portal fills. */
function encode(value: string | number): string {
  return String(value)
    .split(REFERENCES)
    .map((part, i) => (i % 2 === 1 ? part : encodeURIComponent(part)))
    .join('');
}

function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encode(params[name]!));
}

function queryString(query: Record<string, unknown> = {}): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null)
        pairs.push(`${encodeURIComponent(key)}=${encode(String(item))}`);
    }
  }
  return pairs.length ? `?${pairs.join('&')}` : '';
}
