import { use } from 'react';
import type { Me } from '../api/auth';
import { humanize } from '../ui/format';
import catalogueUrl from './catalogue.gen.json?url';
import type { CatalogueInfo, FieldInfo, ResourceInfo } from './catalogue-types';
import { kindOf } from './field-kinds';

let loading: Promise<Catalogue> | undefined;
let loaded: Catalogue | undefined;

/** The catalogue with its lookups. */
export interface Catalogue extends CatalogueInfo {
  byPath: Map<string, ResourceInfo>;
  byName: Map<string, ResourceInfo>;
}

/**
 * The catalogue, fetched once as a hashed asset (immutable cache) when the records browser
 * is first opened, so the login screen never pays for it; suspends until it is there.
 */
export function useCatalogue(): Catalogue {
  // Once there, read at once: suspending on a settled promise would still show the fallback
  // and hold the page back by React's fallback throttle (300 ms).
  return loaded ?? use(preloadCatalogue());
}

/** Starts fetching the catalogue (once); `useCatalogue` then finds it on its way. */
export function preloadCatalogue(): Promise<Catalogue> {
  loading ??= fetch(catalogueUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`catalogue: HTTP ${response.status}`);
      return response.json() as Promise<CatalogueInfo>;
    })
    .then((info) => {
      loaded = {
        ...info,
        byPath: new Map(info.resources.map((r) => [r.path, r])),
        byName: new Map(info.resources.map((r) => [r.name, r])),
      };
      return loaded;
    })
    .catch((error: unknown) => {
      loading = undefined; // a later visit tries again
      throw error;
    });
  return loading;
}

export function canRead(me: Me, module: string): boolean {
  return me.rights.includes(`${module}:read`) || me.rights.includes(`${module}:write`);
}

export function canWrite(me: Me, module: string): boolean {
  return me.rights.includes(`${module}:write`);
}

export function field(resource: ResourceInfo, name: string): FieldInfo | undefined {
  return resource.fields.find((f) => f.name === name);
}

/** `sales-orders` → `Sales orders`, `uom-conversions` → `UoM conversions`. */
export function resourceTitle(resource: ResourceInfo): string {
  return humanize(resource.path);
}

/** `sales_order` → `sales order`. */
export function resourceNoun(resource: ResourceInfo): string {
  return resource.name.replace(/_/g, ' ');
}

/** What names a record: its label field's value, else its id's start. */
export function recordLabel(resource: ResourceInfo, record: Record<string, unknown>): string {
  const value = record[resource.label];
  if (typeof value === 'string' && value) return value;
  return `${resourceNoun(resource)} ${String(record.id).slice(-8)}`;
}

/**
 * Each field's label: its name made readable, except where two fields would read the same
 * (`customer_group`, a text, beside `customer_group_id`, the reference): the one that is not
 * the reference then says what it is.
 */
export function fieldLabels(fields: readonly FieldInfo[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const f of fields) count.set(humanize(f.name), (count.get(humanize(f.name)) ?? 0) + 1);
  return new Map(
    fields.map((f) => {
      const label = humanize(f.name);
      const clash = (count.get(label) ?? 0) > 1 && kindOf(f).shown !== 'reference';
      return [f.name, clash ? `${label} (${kindOf(f).qualifier ?? f.type})` : label];
    }),
  );
}
