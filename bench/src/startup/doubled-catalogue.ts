import { catalogue, defineResource, type Field, type Resource } from '@erp/contract';

/**
 * The catalogue and a renamed copy of every resource (`x_<name>`, `/x-<path>`), references
 * inside the copy pointing at the copy: twice the resources and operations, same shapes, so
 * the growth of start-up and memory per resource shows.
 */
export function doubledCatalogue(): Resource[] {
  const renamed = (name: string) => `x_${name}`.slice(0, 30);
  const copy = (field: Field): Field =>
    field.type === 'reference' && field.resource !== 'user'
      ? { ...field, resource: renamed(field.resource) }
      : field.type === 'lines'
        ? {
            ...field,
            fields: Object.fromEntries(Object.entries(field.fields).map(([k, f]) => [k, copy(f)])),
          }
        : field;
  const copies = catalogue.map((r) =>
    defineResource({
      name: renamed(r.name),
      path: `x-${r.path}`.slice(0, 30),
      module: r.module,
      description: r.description,
      ...(r.numbering ? { numbering: { prefix: `X${r.numbering.prefix}` } } : {}),
      fields: Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, copy(f)])),
      ...(r.totalsFrom ? { totalsFrom: r.totalsFrom } : {}),
      ...(r.lifecycle ? { lifecycle: r.lifecycle } : {}),
      ...(r.events ? { events: r.events } : {}),
      ...(r.ledgerRole ? { ledgerRole: r.ledgerRole } : {}),
      ...(r.postings ? { postings: r.postings } : {}),
      ...(r.conversions
        ? { conversions: r.conversions.map((c) => ({ ...c, target: renamed(c.target) })) }
        : {}),
      ...(r.progress ? { progress: r.progress } : {}),
      ...(r.stock ? { stock: r.stock } : {}),
      ...(r.reservation ? { reservation: r.reservation } : {}),
      ...(r.readOnly ? { readOnly: r.readOnly } : {}),
    }),
  );
  return [...catalogue, ...copies];
}
