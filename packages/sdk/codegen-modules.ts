/**
 * Splits openapi-typescript's output by the contract's modules: one file per module with its
 * paths and only the components they reach, so an integrator's compiler reads ~1/10 of the
 * document for a file that imports one module. Every file (the whole one too) also gets
 * `routes`: per method, an interface from path to operation, which the client indexes
 * directly instead of testing every path with a conditional type.
 */
import type { OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Routes that belong to no business module: sign-in, settings, the feed, batch, the system. */
export const PLATFORM = 'platform';

type PathItem = Record<string, unknown>;

/** The business modules, as the contract's `Module` schema lists them. */
export function modulesOf(document: OpenAPI3): string[] {
  const schema = document.components?.schemas?.Module as { enum?: string[] } | undefined;
  if (!schema?.enum?.length) throw new Error('openapi.json: no `Module` schema with an enum');
  return schema.enum;
}

/**
 * Each path's module: the one its operations' descriptions require (`Needs \`sales:read\``,
 * the sentence every business route carries), else the platform.
 */
export function pathsByModule(document: OpenAPI3): Map<string, string[]> {
  const modules = modulesOf(document);
  const byModule = new Map<string, string[]>([...modules, PLATFORM].map((m) => [m, []]));
  for (const [route, item] of Object.entries(document.paths ?? {})) {
    const named = new Set<string>();
    for (const method of METHODS) {
      const description = (item as PathItem)[method]
        ? String(((item as PathItem)[method] as { description?: string }).description ?? '')
        : '';
      for (const match of description.matchAll(/Needs `(\w+):(?:read|write)`/g))
        if (modules.includes(match[1]!)) named.add(match[1]!);
    }
    if (named.size > 1) throw new Error(`${route}: operations of several modules (${[...named]})`);
    byModule.get([...named][0] ?? PLATFORM)!.push(route);
  }
  return byModule;
}

/** The `#/components/<kind>/<name>` references reachable from `roots`, as `kind/name`. */
function reachable(document: OpenAPI3, roots: unknown[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  const components = document.components as Record<string, Record<string, unknown>>;
  while (queue.length) {
    const value = queue.pop();
    if (typeof value === 'string') {
      const ref = /^#\/components\/(\w+)\/([^/]+)/.exec(value);
      const key = ref && `${ref[1]}/${decodeURIComponent(ref[2]!)}`;
      if (!key || seen.has(key)) continue;
      seen.add(key);
      queue.push(components[ref[1]!]?.[decodeURIComponent(ref[2]!)]);
    } else if (value && typeof value === 'object') queue.push(...Object.values(value));
  }
  return seen;
}

const nameOf = (node: ts.PropertyName): string =>
  ts.isIdentifier(node) || ts.isStringLiteral(node) || ts.isNumericLiteral(node) ? node.text : '';

function members(node: ts.InterfaceDeclaration, keep: (name: string) => boolean) {
  return node.members.filter((m) => m.name && keep(nameOf(m.name)));
}

/** What one file holds: some paths, the webhooks or not, and the components they reach. */
export interface Subset {
  paths: readonly string[];
  webhooks: boolean;
  /** Extra roots, e.g. `#/components/schemas/Error`. */
  refs?: readonly string[];
}

/**
 * openapi-typescript's nodes cut down to `subset`: `paths`, `webhooks`, `components` and
 * `operations` keep only what the subset reaches (an empty component kind becomes `never`,
 * as openapi-typescript writes it).
 */
export function subsetNodes(document: OpenAPI3, nodes: ts.Node[], subset: Subset): ts.Node[] {
  const wanted = new Set(subset.paths);
  const items = subset.paths.map((p) => document.paths?.[p]);
  const hooks = subset.webhooks ? Object.values(document.webhooks ?? {}) : [];
  const refs = reachable(document, [...items, ...hooks, ...(subset.refs ?? [])]);
  const operationIds = new Set<string>();
  for (const item of [...items, ...hooks])
    for (const method of METHODS) {
      const id = ((item as PathItem | undefined)?.[method] as { operationId?: string })
        ?.operationId;
      if (id) operationIds.add(id);
    }
  const f = ts.factory;
  const keepOnly = (node: ts.InterfaceDeclaration, keep: (name: string) => boolean) =>
    f.updateInterfaceDeclaration(
      node,
      node.modifiers,
      node.name,
      node.typeParameters,
      node.heritageClauses,
      members(node, keep),
    );
  return nodes.map((node) => {
    if (!ts.isInterfaceDeclaration(node)) return node;
    switch (node.name.text) {
      case 'paths':
        return keepOnly(node, (name) => wanted.has(name));
      case 'webhooks':
        return keepOnly(node, () => subset.webhooks);
      case 'operations':
        return keepOnly(node, (name) => operationIds.has(name));
      case 'components':
        return f.updateInterfaceDeclaration(
          node,
          node.modifiers,
          node.name,
          node.typeParameters,
          node.heritageClauses,
          node.members.map((kind) => {
            const type = ts.isPropertySignature(kind) ? kind.type : undefined;
            if (!type || !ts.isTypeLiteralNode(type) || !kind.name) return kind;
            const prefix = `${nameOf(kind.name)}/`;
            const kept = type.members.filter((m) => m.name && refs.has(prefix + nameOf(m.name)));
            return f.updatePropertySignature(
              kind as ts.PropertySignature,
              (kind as ts.PropertySignature).modifiers,
              kind.name,
              (kind as ts.PropertySignature).questionToken,
              kept.length
                ? f.updateTypeLiteralNode(type, f.createNodeArray(kept))
                : f.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword),
            );
          }),
        );
      default:
        return node;
    }
  });
}

/** The page a GET answers, when it is one: `{data: [...], next_cursor: string | null}`. */
function answersAPage(document: OpenAPI3, operation: unknown): boolean {
  const responses = (operation as { responses?: Record<string, unknown> }).responses ?? {};
  let schema = resolve(
    document,
    (resolve(document, responses['200']) as { content?: Record<string, { schema?: unknown }> })
      ?.content?.['application/json']?.schema,
  ) as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  schema = resolve(document, schema) as typeof schema;
  const data = resolve(document, schema?.properties?.data) as { type?: unknown } | undefined;
  const cursor = resolve(document, schema?.properties?.next_cursor) as
    | { type?: unknown }
    | undefined;
  const cursorTypes = [cursor?.type]
    .concat(((cursor as { anyOf?: { type?: unknown }[] })?.anyOf ?? []).map((c) => c.type))
    .flat()
    .filter((type) => type !== undefined);
  return (
    data?.type === 'array' &&
    cursorTypes.includes('string') &&
    cursorTypes.every((type) => type === 'string' || type === 'null') &&
    (schema?.required ?? []).includes('data') &&
    (schema?.required ?? []).includes('next_cursor')
  );
}

function resolve(document: OpenAPI3, value: unknown): unknown {
  const ref = (value as { $ref?: string } | undefined)?.$ref;
  if (!ref) return value;
  const [, , kind, name] = ref.split('/');
  const components = document.components as Record<string, Record<string, unknown>>;
  return resolve(document, components[kind!]?.[decodeURIComponent(name!)]);
}

/**
 * `routes`: for each method, the paths that have it and their operation; `list`, the GETs
 * that answer a page (what `pages` and `paginate` take).
 */
export function routesInterface(document: OpenAPI3, paths: readonly string[]): string {
  const block = (entries: string[]) =>
    entries.length ? `{\n${entries.map((e) => `        ${e}\n`).join('')}    }` : '{}';
  const entry = (route: string, method: string) =>
    `${JSON.stringify(route)}: paths[${JSON.stringify(route)}]["${method}"];`;
  const lines = METHODS.map((method) => {
    const entries = paths
      .filter((route) => (document.paths?.[route] as PathItem | undefined)?.[method])
      .map((route) => entry(route, method));
    return `    ${method}: ${block(entries)};\n`;
  });
  const lists = paths
    .filter((route) => {
      const get = (document.paths?.[route] as PathItem | undefined)?.get;
      return get !== undefined && answersAPage(document, get);
    })
    .map((route) => entry(route, 'get'));
  return `/** Each method's paths and their operation; \`list\`: the GETs that answer a page. */
export interface routes {
${lines.join('')}    list: ${block(lists)};
}
`;
}

/**
 * References in `text` to components or operations that `nodes` do not declare: a subset that
 * missed one would make the compiler read it as `any` in a declaration file, silently.
 */
export function danglingReferences(nodes: ts.Node[], text: string): string[] {
  const declared = new Set<string>();
  for (const node of nodes) {
    if (!ts.isInterfaceDeclaration(node)) continue;
    if (node.name.text === 'operations')
      for (const m of node.members) if (m.name) declared.add(`operations/${nameOf(m.name)}`);
    if (node.name.text !== 'components') continue;
    for (const kind of node.members) {
      const type = ts.isPropertySignature(kind) ? kind.type : undefined;
      if (!type || !ts.isTypeLiteralNode(type) || !kind.name) continue;
      for (const m of type.members)
        if (m.name) declared.add(`${nameOf(kind.name)}/${nameOf(m.name)}`);
    }
  }
  const used = [
    ...[...text.matchAll(/components\["(\w+)"\]\["([^"]+)"\]/g)].map((m) => `${m[1]}/${m[2]}`),
    ...[...text.matchAll(/operations\["([^"]+)"\]/g)].map((m) => `operations/${m[1]}`),
  ];
  return [...new Set(used.filter((name) => !declared.has(name)))];
}
