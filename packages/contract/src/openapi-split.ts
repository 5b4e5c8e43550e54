import { type ApiDocumentName, documentIntro, documentTitle } from './openapi-tags';

/** The parts of an OpenAPI 3.1 document the split reads; the rest is copied as it is. */
interface Document {
  info: { title: string; description?: string; [key: string]: unknown };
  tags?: Array<{ name: string }>;
  'x-tagGroups'?: Array<{ name: string; tags: string[] }>;
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const COMPONENT_REF = /^#\/components\/([^/]+)\/([^/]+)$/;

/**
 * One document's part of the whole (`name`: the platform or a module): the operations and
 * webhooks whose tag belongs to its tag group, the components they reference (transitively),
 * every security scheme, its own tags and group. A valid OpenAPI document on its own, the
 * reference loads it instead of the whole; the whole stays the contract.
 */
export function splitOpenApiDocument(whole: Document, name: ApiDocumentName) {
  const title = documentTitle(name);
  const group = whole['x-tagGroups']?.find((g) => g.name === title);
  if (!group) throw new Error(`no tag group ${title} (${name}) in the document`);
  const tags = new Set(group.tags);
  const paths = pickOperations(whole.paths ?? {}, tags);
  const webhooks = pickOperations(whole.webhooks ?? {}, tags);
  const components = referencedComponents(whole.components ?? {}, [paths, webhooks]);
  const intro = documentIntro(name);

  const { paths: _paths, webhooks: _webhooks, components: _components, ...rest } = whole;
  return {
    ...rest,
    info: {
      ...whole.info,
      title: `${whole.info.title}: ${title}`,
      description: `${whole.info.description ?? ''}\n\n${intro ? `${intro}\n\n` : ''}The ${title} part of the whole document (\`/api/v1/openapi.json\`): its operations${Object.keys(webhooks).length ? ', the webhooks' : ''} and the components they use.`,
    },
    tags: (whole.tags ?? []).filter((t) => tags.has(t.name)),
    'x-tagGroups': [group],
    paths,
    ...(Object.keys(webhooks).length ? { webhooks } : {}),
    components,
  };
}

/** Path items with only the operations tagged in `tags`; items left with none are dropped. */
function pickOperations(
  items: Record<string, Record<string, unknown>>,
  tags: Set<string>,
): Record<string, Record<string, unknown>> {
  const picked: Record<string, Record<string, unknown>> = {};
  for (const [key, item] of Object.entries(items)) {
    const kept = Object.entries(item).filter(
      ([field, op]) =>
        !METHODS.has(field) ||
        ((op as { tags?: string[] }).tags ?? []).some((tag) => tags.has(tag)),
    );
    if (kept.some(([field]) => METHODS.has(field))) picked[key] = Object.fromEntries(kept);
  }
  return picked;
}

/** The components reachable from `roots` through `$ref`s, in the whole's order; security schemes all. */
function referencedComponents(
  components: Record<string, Record<string, unknown>>,
  roots: unknown[],
): Record<string, Record<string, unknown>> {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const match = COMPONENT_REF.exec(value);
          if (match && !seen.has(value)) {
            seen.add(value);
            pending.push(components[match[1]!]?.[match[2]!]);
          }
        } else if (typeof value === 'object') pending.push(value);
      }
    }
  }
  const picked: Record<string, Record<string, unknown>> = {};
  for (const [type, entries] of Object.entries(components)) {
    const kept = Object.entries(entries).filter(
      ([key]) => type === 'securitySchemes' || seen.has(`#/components/${type}/${key}`),
    );
    if (kept.length) picked[type] = Object.fromEntries(kept);
  }
  return picked;
}
