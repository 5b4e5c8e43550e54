import {
  ApiError,
  type Embedding,
  embeddings,
  type Resource,
  type ResourceLookup,
} from '@erp/contract';

/** What a read returns of each record: which fields and records inline, in the order asked for. */
export interface ReadShape {
  /** Field names in answer order: `id` first unless `select` placed it. */
  fields: string[];
  embeds: Embedding[];
}

/** What decides whether an embedded record may be read: the caller's rights and modules. */
export interface ReadAccess {
  rights: ReadonlySet<string>;
  modules: readonly string[];
}

/**
 * The whole record and nothing embedded: what a read returns without `select` and `embed`. One
 * object per resource (most reads ask for it), never changed by its readers.
 */
export function wholeRecord(resource: Resource): ReadShape {
  let shape = wholeRecords.get(resource);
  if (!shape) {
    shape = { fields: Object.keys(resource.allFields), embeds: [] };
    wholeRecords.set(resource, shape);
  }
  return shape;
}

const wholeRecords = new WeakMap<Resource, ReadShape>();

/**
 * `select=` and `embed=` (comma-separated, or repeated) checked against the resource. An
 * unknown name is `requete_invalide` naming it; an embed whose module the caller cannot read
 * (module not bought, right or scope missing) is `acces_refuse`: the request is refused rather
 * than answered without the record, so a missing record never reads as "no reference".
 */
export function parseReadShape(
  resource: Resource,
  registry: ResourceLookup,
  query: Record<string, string[]>,
  access: ReadAccess,
  options: { embed: boolean } = { embed: true },
): ReadShape {
  if (!options.embed && query.embed)
    throw unknownNames('embed', query.embed, [], 'This route does not embed records.');
  if (query.select === undefined && query.embed === undefined) return wholeRecord(resource);
  const selected = names(query.select, 'select', Object.keys(resource.allFields));
  const available = options.embed ? embeddings(resource, registry) : [];
  const wanted = names(
    query.embed,
    'embed',
    available.map((e) => e.name),
  );
  const embeds = (wanted ?? []).map((name) => available.find((e) => e.name === name)!);
  for (const embed of embeds) {
    const { module } = embed.target;
    const right = `${module}:read`;
    if (!access.modules.includes(module) || !access.rights.has(right))
      throw new ApiError(
        'acces_refuse',
        `Embedding ${embed.name} needs the right ${right}${access.modules.includes(module) ? '' : ` (the tenant has not subscribed to ${module})`}.`,
        { required: right, embed: embed.name },
      );
  }
  const fields = selected
    ? [...(selected.includes('id') ? [] : ['id']), ...selected]
    : Object.keys(resource.allFields);
  return { fields, embeds };
}

/** The distinct names of a list parameter, or undefined when absent; unknown ones refused. */
function names(
  values: string[] | undefined,
  parameter: string,
  allowed: string[],
): string[] | undefined {
  if (values === undefined) return undefined;
  const list = [...new Set(values.flatMap((v) => v.split(',')))];
  const unknown = list.filter((name) => !allowed.includes(name));
  if (unknown.length) throw unknownNames(parameter, unknown, allowed);
  return list;
}

function unknownNames(
  parameter: string,
  unknown: string[],
  allowed: string[],
  message = `Unknown ${parameter === 'select' ? 'field' : 'reference'}.`,
): ApiError {
  return new ApiError('requete_invalide', `The request query is invalid: ${parameter}.`, {
    issues: unknown.map((name) => ({
      location: 'query',
      path: parameter,
      code: 'unknown_name',
      message: name === '' ? 'An empty name.' : message,
      name,
      allowed,
    })),
  });
}
