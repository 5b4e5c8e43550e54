import { ApiError } from '@erp/contract';
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { invalidRequest } from './errors';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;
const FORM_MEDIA_TYPE = /^application\/x-www-form-urlencoded$/i;
/** Strips a leading BOM (RFC 8259 lets a parser ignore it) and throws on any invalid byte. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses, before any handler or validator reads it, a body that cannot be decoded exactly:
 * a charset other than UTF-8 (JSON between systems is UTF-8, RFC 8259 §8.1), bytes that are not
 * UTF-8, and JSON strings holding lone surrogates (`"\ud800"`), which PostgreSQL and every
 * UTF-8 encoder would otherwise turn silently into U+FFFD. A JSON body is parsed once here and
 * handed to the validators through Hono's body cache. Mount it after the body limit.
 */
export function strictBodies(): MiddlewareHandler {
  return async function decodeBodyStrictly(c, next) {
    const type = c.req.header('content-type');
    if (type !== undefined && WITH_BODY.has(c.req.method)) {
      const { essence } = mediaType(type);
      // An empty body is no body (clients send Content-Type on a DELETE too): the route decides.
      if (JSON_MEDIA_TYPE.test(essence)) {
        if ((await readText(c)) !== '') await readJson(c);
      } else if (FORM_MEDIA_TYPE.test(essence)) await readUrlEncoded(c);
    }
    await next();
  };
}

/** The JSON body, decoded strictly (see `strictBodies`); `requete_invalide` otherwise. */
export async function readJson(c: Context): Promise<unknown> {
  const cache = c.req.bodyCache as { json?: Promise<unknown> };
  if (cache.json) return cache.json;
  const { essence } = mediaType(c.req.header('content-type') ?? '');
  if (!JSON_MEDIA_TYPE.test(essence)) throw unsupportedType('application/json');
  const text = await readText(c);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('requete_invalide', 'The request body is not valid JSON.', {
      issues: [{ location: 'body', path: '', code: 'invalid_json', message: 'Malformed JSON' }],
    });
  }
  // Lone surrogates only come from \u escapes: text decoded from UTF-8 cannot hold one.
  const badPath = text.includes('\\u') ? loneSurrogatePath(value, []) : undefined;
  if (badPath !== undefined) {
    throw new ApiError('requete_invalide', 'The request body holds an unpaired surrogate.', {
      issues: [
        {
          location: 'json',
          path: badPath,
          code: 'invalid_string',
          message: 'A \\uD800-\\uDFFF escape must be half of a surrogate pair',
        },
      ],
    });
  }
  cache.json = Promise.resolve(value);
  return value;
}

/** The JSON body validated by `schema`, with every issue in `params.issues`. */
export async function readJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
): Promise<z.infer<T>> {
  return validate(schema, await readJson(c));
}

/** `value` checked against `schema`, with every issue in `params.issues`. */
export function validate<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidRequest('body', parsed.error);
  return parsed.data;
}

/**
 * An `application/x-www-form-urlencoded` body as Hono's `parseBody({all: true})` gives it, after
 * checking that every percent-escape decodes to UTF-8 (URLSearchParams would put U+FFFD there).
 */
export async function readUrlEncoded(c: Context): Promise<Record<string, string | string[]>> {
  const text = await readText(c);
  for (const part of text.split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw undecodable('A percent-escape of the form body is not UTF-8.');
    }
  }
  return (await c.req.parseBody({ all: true })) as Record<string, string | string[]>;
}

/** The body as text, decoded once and kept in Hono's body cache (so `c.req.text()` agrees). */
async function readText(c: Context): Promise<string> {
  const cache = c.req.bodyCache as { text?: Promise<string> };
  cache.text ??= decodeBody(c);
  return cache.text;
}

async function decodeBody(c: Context): Promise<string> {
  const { charset } = mediaType(c.req.header('content-type') ?? '');
  if (charset !== undefined && !isUtf8Label(charset)) {
    throw new ApiError('requete_invalide', 'Send the body in UTF-8.', {
      issues: [
        {
          location: 'header',
          path: 'content-type',
          code: 'invalid_charset',
          message: `charset ${charset} is not supported: use utf-8`,
        },
      ],
    });
  }
  try {
    return UTF8.decode(await c.req.arrayBuffer());
  } catch (error) {
    if (error instanceof TypeError) throw undecodable('The request body is not valid UTF-8.');
    throw error;
  }
}

export function mediaType(header: string): { essence: string; charset?: string } {
  const [essence = '', ...parameters] = header.split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const [name, ...rest] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset')
      charset = rest
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1');
  }
  return { essence: essence.trim(), charset };
}

function isUtf8Label(label: string): boolean {
  try {
    return new TextDecoder(label).encoding === 'utf-8';
  } catch {
    return false;
  }
}

/** ES2024's String.prototype.isWellFormed (Node 20+), not yet in the ES2023 lib we compile with. */
const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();

/** The dotted path of the first string or key holding a lone surrogate, or undefined. */
function loneSurrogatePath(value: unknown, path: string[]): string | undefined {
  if (typeof value === 'string') return wellFormed(value) ? undefined : path.join('.');
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = loneSurrogatePath(item, [...path, String(i)]);
      if (found !== undefined) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!wellFormed(key)) return [...path, key].join('.');
      const found = loneSurrogatePath(item, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function undecodable(message: string): ApiError {
  return new ApiError('requete_invalide', message, {
    issues: [{ location: 'body', path: '', code: 'invalid_encoding', message }],
  });
}

function unsupportedType(expected: string): ApiError {
  return new ApiError('requete_invalide', `Send the body as ${expected}.`, {
    issues: [
      {
        location: 'header',
        path: 'content-type',
        code: 'invalid_type',
        message: `Expected ${expected}`,
      },
    ],
  });
}
