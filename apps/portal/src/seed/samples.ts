import { type Field, type Resource, sampleOf } from '@erp/contract';

const WORDS = [
  'Atlas',
  'Boréal',
  'Cèdre',
  'Delta',
  'Étoile',
  'Fjord',
  'Granit',
  'Hélios',
  'Iris',
  'Jade',
  'Kobalt',
  'Lumen',
];

/** Ids of existing records by resource name (`user`: members of the tenant), to fill references. */
export type ReferencePool = ReadonlyMap<string, readonly string[]>;

/**
 * A valid create body for a resource, varied by `n`: every required field, most optional
 * ones, references drawn from `refs`. Used by the seed and by generated tests.
 */
export function sampleBody(
  resource: Resource,
  n: number,
  refs: ReferencePool,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(resource.fields)) {
    if (!field.required && n % 4 === 3) continue; // leave some optional fields empty
    const value = sampleValue(name, field, n, refs);
    if (value !== undefined) body[name] = value;
  }
  return body;
}

/** One plausible value of a field: its type's sample, references drawn from `refs`. */
export function sampleValue(name: string, field: Field, n: number, refs: ReferencePool): unknown {
  if (field.type === 'reference') {
    const pool = refs.get(field.resource) ?? [];
    if (pool.length > 0) return pool[n % pool.length];
    if (field.required) throw new Error(`no ${field.resource} to reference`);
    return undefined;
  }
  if (field.type === 'lines')
    return Array.from({ length: 1 + (n % 3) }, (_, i) => {
      const line: Record<string, unknown> = {};
      for (const [lineName, lineField] of Object.entries(field.fields)) {
        const value =
          lineName === 'tax_rate'
            ? ['20', '10', '5.5'][i % 3]
            : sampleValue(lineName, lineField, n + i, refs);
        if (value !== undefined) line[lineName] = value;
      }
      return line;
    });
  if (field.type === 'text' && !(field.example !== undefined && n === 0))
    return `${WORDS[n % WORDS.length]} ${name.replace(/_/g, ' ')} ${n + 1}`.slice(
      0,
      field.maxLength,
    );
  return sampleOf(field, n);
}
