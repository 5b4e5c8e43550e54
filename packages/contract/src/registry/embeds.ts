import type { Resource } from './define';
import { USER } from './fields';

/** The resources of a registry by name, as `createRegistry` returns them. */
export type ResourceLookup = ReadonlyMap<string, Resource>;

/**
 * A reference a read may embed (SPEC §12): `embed=customer` puts the record `customer_id` names
 * inline under `customer`.
 */
export interface Embedding {
  /** The key in the answer: the reference field's name without `_id`. */
  name: string;
  /** The reference field (`customer_id`). */
  field: string;
  /** The referenced resource. */
  target: Resource;
  /** A required reference: the embedded record is never null. */
  required: boolean;
  /**
   * The name is also a field of the record: a text kept for compatibility that repeats the
   * reference (`customers.customer_group` beside `customer_group_id`). Embedding puts the
   * record in its place, as Stripe's `expand` puts an object where its id was.
   */
  replaces: boolean;
}

const built = new WeakMap<Resource, Embedding[]>();

/**
 * The references of a resource a read can embed: its top-level references to other business
 * records, named `<name>_id`. References to users are not records of a module (no right says
 * who may read them), and references inside lines would be a second level: neither embeds.
 */
export function embeddings(resource: Resource, registry: ResourceLookup): Embedding[] {
  let list = built.get(resource);
  if (!list) {
    list = [];
    for (const [field, spec] of Object.entries(resource.allFields)) {
      if (spec.type !== 'reference' || spec.resource === USER || !field.endsWith('_id')) continue;
      const target = registry.get(spec.resource);
      if (!target) throw new Error(`resource ${resource.name}: ${field} names no resource`);
      const name = field.slice(0, -3);
      list.push({
        name,
        field,
        target,
        required: spec.required === true,
        replaces: name in resource.allFields,
      });
    }
    built.set(resource, list);
  }
  return list;
}

/** A lookup of resources by name. */
export function lookupOf(resources: Iterable<Resource>): ResourceLookup {
  return new Map([...resources].map((r) => [r.name, r]));
}
