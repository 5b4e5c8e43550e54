import {
  API_DOCUMENTS,
  type ApiDocumentName,
  documentIntro,
  documentTitle,
  openApiText,
  splitOpenApiDocument,
} from '@erp/contract';

/** One operation as the reference's index lists it. */
export interface IndexedOperation {
  method: string;
  path: string;
  summary: string;
  tag: string;
}

/** One part of the document as the index shows it: the platform or a module. */
export interface IndexedDocument {
  name: ApiDocumentName;
  title: string;
  description: string;
  tags: Array<{ name: string; title: string }>;
  operations: IndexedOperation[];
  webhooks: number;
}

type Whole = Parameters<typeof splitOpenApiDocument>[0];
type Operation = { summary?: string; tags?: string[] };
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/**
 * The parts of the served document, cut on the first request that needs them (parsing the
 * whole takes ~100 ms, not at start-up). `index()` is what the reference's first page lists;
 * `partText(name)` a part's text, handed over once: whoever serves it keeps the bytes, and
 * the whole is parsed again only if it is asked a second time (a failed first answer).
 */
export type OpenApiParts = ReturnType<typeof openApiParts>;

export function openApiParts(openapi: () => string) {
  let texts: Map<ApiDocumentName, string> | undefined;
  let indexed: IndexedDocument[] | undefined;

  const cut = () => {
    const whole = JSON.parse(openapi()) as Whole;
    texts = new Map(
      API_DOCUMENTS.map((name) => [name, openApiText(splitOpenApiDocument(whole, name))]),
    );
    indexed ??= indexOf(whole);
  };
  return {
    index(): IndexedDocument[] {
      if (!indexed) cut();
      return indexed!;
    },
    partText(name: ApiDocumentName): string {
      if (!texts?.has(name)) cut();
      const text = texts!.get(name)!;
      texts!.delete(name);
      return text;
    },
  };
}

function indexOf(whole: Whole): IndexedDocument[] {
  const tags = new Map((whole.tags ?? []).map((t) => [t.name, t as Record<string, string>]));
  const tagTitle = (name: string) => tags.get(name)?.['x-displayName'] ?? name;
  return API_DOCUMENTS.map((name) => {
    const title = documentTitle(name);
    const group = whole['x-tagGroups']?.find((g) => g.name === title)?.tags ?? [];
    const inGroup = (op: Operation) => (op.tags ?? []).some((t) => group.includes(t));
    const operations: IndexedOperation[] = [];
    for (const [path, item] of Object.entries(whole.paths ?? {})) {
      for (const method of METHODS) {
        const op = item[method] as Operation | undefined;
        if (op && inGroup(op))
          operations.push({ method, path, summary: op.summary ?? '', tag: op.tags![0]! });
      }
    }
    const webhooks = Object.values(whole.webhooks ?? {}).filter((item) =>
      Object.values(item).some((op) => inGroup(op as Operation)),
    ).length;
    const description = documentIntro(name) ?? `${group.map(tagTitle).join(', ')}.`;
    return {
      name,
      title,
      description,
      tags: group.map((tag) => ({ name: tag, title: tagTitle(tag) })),
      operations,
      webhooks,
    };
  });
}
