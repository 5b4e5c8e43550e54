import type { ApiError } from './errors.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * What a client is typed with: for each method, an interface from path to operation, and
 * `list`, the GETs that answer a page (the generated `routes` of api.gen.ts or of a module's
 * file). Indexing these interfaces is all a call costs the compiler: no conditional type runs
 * over every path.
 */
export interface Routes {
  get: object;
  post: object;
  put: object;
  patch: object;
  delete: object;
  list: object;
}

/** The paths of `R` that have an operation for `M`. */
export type PathOf<R extends Routes, M extends Method> = keyof R[M] & string;

// Every conditional on an operation `O` is wrapped (`[O] extends [...]`): a call's operation is
// one type, and an unwrapped one would be evaluated once per path whenever the compiler
// reads it through the constraint of `P` (every path of the method) before `P` is inferred.
type Parameters<O> = [O] extends [{ parameters: infer X }] ? X : object;
type PathPart<O> = Parameters<O> extends { path: infer X } ? { path: X } : { path?: never };
type QueryPart<O> =
  Parameters<O> extends { query: infer Q }
    ? { query: Q }
    : Parameters<O> extends { query?: infer Q }
      ? [NonNullable<Q>] extends [never]
        ? { query?: never }
        : { query?: NonNullable<Q> }
      : { query?: never };
/** A body sent as is (a file): `raw` in a call's init, for routes whose body is not JSON. */
export type RawBody = Uint8Array | ArrayBuffer | Blob | string;
type NoBody = { body?: never; raw?: never };
// A JSON body is `body` (serialised by the client); any other media type is `raw`, sent as is.
type BodyPart<O> = [O] extends [{ requestBody: { content: { 'application/json': infer B } } }]
  ? { body: B; raw?: never }
  : [O] extends [{ requestBody: { content: object } }]
    ? { raw: RawBody; body?: never }
    : [O] extends [{ requestBody?: infer R }]
      ? [NonNullable<R>] extends [never]
        ? NoBody
        : NonNullable<R> extends { content: { 'application/json': infer B } }
          ? { body?: B; raw?: never }
          : { raw?: RawBody; body?: never }
      : NoBody;

/** What a call takes besides its path: path parameters, query, body, headers and signal. */
export type RequestInit<O> = PathPart<O> &
  QueryPart<O> &
  BodyPart<O> & {
    /** Extra headers; they override the client's own (X-Tenant-ID, Idempotency-Key…). */
    headers?: Record<string, string>;
    /** Aborts the request and any retry waiting to happen. */
    signal?: AbortSignal;
  };

/**
 * How a success body is read: `auto` (default) parses JSON and gives any other media type as
 * text; `text` always text; `bytes` a `Uint8Array` (a PDF, any file). Errors are read as JSON.
 */
export type ParseAs = 'auto' | 'text' | 'bytes';

/** The data of a call read as `A`. */
export type Parsed<A extends ParseAs, T> = A extends 'bytes'
  ? Uint8Array
  : A extends 'text'
    ? string
    : T;

/** The init argument, optional when nothing in it is required. */
export type InitArgs<O> =
  object extends RequestInit<O> ? [init?: RequestInit<O>] : [init: RequestInit<O>];

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206 | '2XX';
/** JSON is parsed; any other media type (an export's NDJSON or CSV) is returned as text. */
type Content<R> = R extends { content: infer C }
  ? C extends { 'application/json': infer T }
    ? T
    : C[keyof C]
  : undefined;

/** The JSON body of the operation's success responses. */
export type Success<O> = [O] extends [{ responses: infer R }]
  ? { [S in keyof R]: S extends SuccessStatus ? Content<R[S]> : never }[keyof R]
  : never;

/** Either the data or an error, never both and never a throw. */
export type Result<T> =
  | { data: T; error?: undefined; response: Response }
  | { data?: undefined; error: ApiError; response?: Response };

/** The GET paths of `R` answering a page: `{data: [...], next_cursor}`. */
export type ListPathOf<R extends Routes> = keyof R['list'] & string;
/** A page of `P`. */
export type PageOf<R extends Routes, P extends ListPathOf<R>> = Success<R['list'][P]>;
/** One row of a page of `P`. */
export type ItemOf<R extends Routes, P extends ListPathOf<R>> =
  PageOf<R, P> extends { data: (infer I)[] } ? I : never;
/** The query a list accepts: its filterable fields, `order`, `page_size` and `cursor`. */
export type ListQueryOf<R extends Routes, P extends ListPathOf<R>> = NonNullable<
  RequestInit<R['list'][P]>['query']
>;
