import type { ParseAs, RequestInit, Success } from './types.js';

/**
 * Result types of `select=` and `embed=` (SPEC §12): `query: {select: ['number']}` answers
 * `{id, number}`, and `embed: ['customer']` adds the customer record where the type had only
 * an optional key. Types only; nothing here runs.
 */

// An operation without a query has `query?: never`: kept `never`, and not matched below, where
// `never extends X` would hold and infer `unknown`.
type QueryOf<O> = [O] extends [{ parameters: { query?: infer Q } }] ? NonNullable<Q> : never;
type NamesOf<Q, K extends string> = [Q] extends [never]
  ? never
  : Q extends { [P in K]?: (infer N)[] }
    ? N & string
    : never;

/** The fields `select` may name on operation `O`. */
export type SelectableField<O> = NamesOf<QueryOf<O>, 'select'>;
/** The references `embed` may name on operation `O`. */
export type EmbeddableName<O> = NamesOf<QueryOf<O>, 'embed'>;

/** What a call names in `select` (`S`) and `embed` (`E`), for the compiler to infer them. */
type Shaping<S extends string, E extends string> = { query?: { select?: S[]; embed?: E[] } };

/** How the body is read (`A`): the client's calls take it, pages do not. */
type Parsing<A extends ParseAs> = [A] extends [never] ? { parseAs?: never } : { parseAs?: A };

/**
 * A call's init argument, through which `S` and `E` are inferred from `query`, and `A` from
 * `parseAs`.
 */
export type ShapedArgs<O, S extends string, E extends string, A extends ParseAs = never> =
  object extends RequestInit<O>
    ? [init?: RequestInit<O> & Shaping<S, E> & Parsing<A>]
    : [init: RequestInit<O> & Shaping<S, E> & Parsing<A>];

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type IsOptional<T, K extends keyof T> = object extends Pick<T, K> ? true : false;
type Selected<T, S extends string> = [S] extends [never] ? keyof T : S | 'id';

/**
 * One record of `T` as a read with `select=S` and `embed=E` returns it (`All`: every name
 * `embed` accepts). A name not embedded goes (its key is optional in `T`: present only when
 * embedded), unless it is also a field of the record, which keeps its plain value; a name
 * embedded is the referenced record, or null for an optional reference.
 */
export type Shaped<T, S extends string, E extends string, All extends string> = Simplify<
  {
    [K in keyof T as K extends All
      ? K extends E
        ? never
        : IsOptional<T, K> extends true
          ? never
          : K extends Selected<T, S>
            ? K
            : never
      : K extends Selected<T, S>
        ? K
        : never]: K extends All ? Exclude<T[K], object> : T[K];
  } & { [K in keyof T as K extends E ? K : never]-?: Exclude<T[K], string | undefined> }
>;

/**
 * The success body of `O` called with `select=S` and `embed=E`: the record, or each record of
 * a page. Operations without `select` keep their type.
 */
export type ShapedSuccess<O, S extends string, E extends string> = [SelectableField<O>] extends [
  never,
]
  ? Success<O>
  : Success<O> extends { data: (infer R)[]; next_cursor: string | null }
    ? Simplify<Omit<Success<O>, 'data'> & { data: Shaped<R, S, E, EmbeddableName<O>>[] }>
    : Shaped<Success<O>, S, E, EmbeddableName<O>>;

/** One row of a page of `O` called with `select=S` and `embed=E`. */
export type ShapedItem<O, S extends string, E extends string> =
  ShapedSuccess<O, S, E> extends { data: (infer R)[] } ? R : never;
