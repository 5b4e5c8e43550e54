/**
 * List-query helpers (SPEC §6): `status: eq('confirme')` → `status=eq.confirme`. The generated
 * types say which operators each field accepts, so a wrong one fails to compile.
 */
export type FilterValue = string | number | boolean | Date;

const text = (value: FilterValue) => (value instanceof Date ? value.toISOString() : String(value));
const operator =
  <O extends string>(op: O) =>
  (value: FilterValue): `${O}.${string}` =>
    `${op}.${text(value)}`;

// The portal takes everything after the operator's dot as the value, so these need no quoting.
export const eq = operator('eq');
export const neq = operator('neq');
export const gt = operator('gt');
export const gte = operator('gte');
export const lt = operator('lt');
export const lte = operator('lte');
/** `*` is the wildcard; `\*` a literal star (PostgREST's convention). */
export const like = operator('like');
/** Case-insensitive `like`. */
export const ilike = operator('ilike');

/**
 * `in.(a,b,"c,d")`: an item holding a reserved character (`,.:()"\` or a space) or nothing at
 * all is double-quoted, with `"` and `\` escaped by a backslash, as the portal's parser reads it.
 */
export function in_(values: readonly FilterValue[]): `in.(${string})` {
  return `in.(${values.map(listItem).join(',')})`;
}

function listItem(value: FilterValue): string {
  const item = text(value);
  return item === '' || /[,.:()"\\\s]/.test(item) ? `"${item.replace(/["\\]/g, '\\$&')}"` : item;
}

/** `is.null`, `is.true`, `is.false`. */
export function is<V extends null | boolean>(value: V): `is.${V}` {
  return `is.${value}`;
}

/** One sort term, `created_at.desc`; join several with a comma. */
export function order<F extends string, D extends 'asc' | 'desc' = 'asc'>(
  field: F,
  direction?: D,
): `${F}.${D}` {
  return `${field}.${direction ?? 'asc'}` as `${F}.${D}`;
}
