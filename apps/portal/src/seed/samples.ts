import { randomUUID } from 'node:crypto';
import type { Field, Resource } from '@erp/contract';

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

/** One plausible value of a field. */
export function sampleValue(name: string, field: Field, n: number, refs: ReferencePool): unknown {
  const word = WORDS[n % WORDS.length]!;
  switch (field.type) {
    case 'text': {
      const value =
        field.example !== undefined && n === 0
          ? String(field.example)
          : `${word} ${name.replace(/_/g, ' ')} ${n + 1}`;
      return value.slice(0, field.maxLength);
    }
    case 'email':
      return `${word.normalize('NFD').replace(/[^\w]/g, '').toLowerCase()}.${n + 1}@example.test`;
    case 'enum':
      return field.values[n % field.values.length];
    case 'integer':
      return clamp(1 + (n % 30), field.min, field.max);
    case 'money':
      return clamp(1_000 + ((n * 3_791) % 250_000), field.min, undefined);
    case 'decimal':
      return String(clamp(1 + (n % 9) + 0.5, field.min, field.max));
    case 'boolean':
      return n % 3 !== 0;
    case 'date':
      return new Date(Date.UTC(2026, n % 12, 1 + (n % 28))).toISOString().slice(0, 10);
    case 'timestamp':
      return new Date(Date.UTC(2026, n % 12, 1 + (n % 28), n % 24)).toISOString();
    case 'uuid':
      return randomUUID();
    case 'reference': {
      const pool = refs.get(field.resource) ?? [];
      if (pool.length === 0)
        return field.required
          ? (() => {
              throw new Error(`no ${field.resource} to reference`);
            })()
          : undefined;
      return pool[n % pool.length];
    }
    case 'json':
      return { source: 'sample', n };
    case 'lines':
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
  }
}

function clamp(value: number, min?: number, max?: number): number {
  return Math.min(
    max ?? Number.POSITIVE_INFINITY,
    Math.max(min ?? Number.NEGATIVE_INFINITY, value),
  );
}
