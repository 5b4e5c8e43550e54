import { XMLParser } from 'fast-xml-parser';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

/**
 * An element to write: its name, attributes and children (text or elements). `undefined`
 * children and elements whose content is `undefined` are left out, so an optional business
 * term that is not there writes nothing. Text is escaped by the builder, never concatenated.
 */
export interface Element {
  name: string;
  attributes?: Record<string, string> | undefined;
  children: (Element | string)[];
}

type Child = Element | string | undefined | false | null;

/** Characters XML 1.0 cannot carry (controls, lone surrogates, U+FFFE/F), as U+FFFD. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const xmlText = (value: string) => value.replace(NOT_XML, '\uFFFD');

/** `<name attributes>children</name>`; with no child at all (all undefined), nothing. */
export function el(
  name: string,
  content: Child | Child[],
  attributes?: Record<string, string | undefined>,
): Element | undefined {
  const children = (Array.isArray(content) ? content : [content])
    .filter((c): c is Element | string => c !== undefined && c !== null && c !== false && c !== '')
    .map((c) => (typeof c === 'string' ? xmlText(c) : c));
  if (!children.length) return undefined;
  const attrs = attributes
    ? Object.fromEntries(
        Object.entries(attributes)
          .filter((e): e is [string, string] => e[1] !== undefined)
          .map(([name, value]) => [name, xmlText(value)]),
      )
    : undefined;
  return { name, attributes: attrs, children };
}

function write(parent: XMLBuilder, element: Element): void {
  const node = parent.ele(element.name, element.attributes ?? {});
  for (const child of element.children) {
    if (typeof child === 'string') node.txt(child);
    else if (typeof child === 'object' && typeof child.name === 'string') write(node, child);
    else throw new TypeError(`${element.name}: a ${typeof child} is neither text nor an element`);
  }
}

/** The document as UTF-8 XML text with its declaration, indented for people who open it. */
export function serialize(root: Element): string {
  const document = create({ version: '1.0', encoding: 'UTF-8' });
  write(document, root);
  return document.end({ prettyPrint: true });
}

/** A parsed element: its text (`#text`), attributes (`@_name`) and children by local name. */
export type Node = { [key: string]: Node[] | string | undefined };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  alwaysCreateTextNode: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  processEntities: true,
  htmlEntities: false,
});

/** Thrown when a body is not well-formed XML of a syntax we read. */
export class XmlError extends Error {}

/** Parses XML into `Node`s (every element an array; namespaces dropped: the root says which syntax). */
export function parse(xml: string): Node {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml))
    throw new XmlError('a document type declaration is not allowed in an e-invoice');
  let parsed: unknown;
  try {
    parsed = parser.parse(xml, true);
  } catch (error) {
    throw new XmlError(`not well-formed XML: ${(error as Error).message}`);
  }
  return parsed as Node;
}

/** The first child element at a path of local names (`a/b/c`). */
export function one(node: Node | undefined, path: string): Node | undefined {
  let current: Node | undefined = node;
  for (const name of path.split('/')) {
    const next: Node[] | string | undefined = current?.[name];
    current = Array.isArray(next) ? next[0] : undefined;
    if (!current) return undefined;
  }
  return current;
}

/** Every child element at a path (the last step's array). */
export function all(node: Node | undefined, path: string): Node[] {
  const steps = path.split('/');
  const last = steps.pop()!;
  const parent = steps.length ? one(node, steps.join('/')) : node;
  const found = parent?.[last];
  return Array.isArray(found) ? found : [];
}

/** The text of the element at a path, trimmed; undefined when absent or empty. */
export function text(node: Node | undefined, path?: string): string | undefined {
  const target = path ? one(node, path) : node;
  if (!target) return undefined;
  const value = target['#text'];
  const content = typeof value === 'string' ? value : undefined;
  return content?.trim() || undefined;
}

/** An attribute of the element at a path. */
export function attribute(node: Node | undefined, path: string, name: string): string | undefined {
  const value = one(node, path)?.[`@_${name}`];
  return typeof value === 'string' ? value : undefined;
}
