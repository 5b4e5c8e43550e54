import { validationHook } from '@erp/http';
import type { RouteConfig } from '@hono/zod-openapi';
import { zValidator } from '@hono/zod-validator';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { type ZodObject, type ZodType, z } from 'zod';

const JSON_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/**
 * Validates a request against its contract route exactly as `OpenAPIHono.openapi` would (query,
 * path, headers, then the JSON body, with the same hook), but builds the route's zod schemas
 * and validators on the first request rather than at start: a portal of 1000+ operations
 * starts without building schemas it may never use.
 */
export function validateLazily(route: () => RouteConfig): MiddlewareHandler {
  let validators: MiddlewareHandler[] | undefined;
  return function validateRequest(c, next) {
    validators ??= buildValidators(route());
    return inTurn(validators, 0, c, next);
  };
}

/**
 * Each validator in turn, then the route's handler: what `every()` of hono/combine does,
 * without composing a chain anew on every request.
 */
function inTurn(
  validators: MiddlewareHandler[],
  i: number,
  c: Context,
  next: Next,
): Promise<Response | undefined> {
  if (i === validators.length) return next().then(() => undefined);
  return validators[i]!(c, () => inTurn(validators, i + 1, c, next) as Promise<never>) as Promise<
    Response | undefined
  >;
}

function buildValidators(route: RouteConfig): MiddlewareHandler[] {
  // The app's defaultHook: the one place validation failures become `requete_invalide`.
  const hook = (result: unknown) => validationHook(result as Parameters<typeof validationHook>[0]);
  const validators: MiddlewareHandler[] = [];
  const { query, params, headers, body } = route.request ?? {};
  const parsing = { validationFunction: parseSoonest };
  if (query) validators.push(zValidator('query', query as ZodType, hook, parsing));
  if (params) validators.push(zValidator('param', params as ZodType, hook, parsing));
  if (headers && !Array.isArray(headers))
    validators.push(validateHeaders(headers as ZodObject, hook));
  const json = body?.content['application/json'];
  const schema = json && 'schema' in json ? json.schema : undefined;
  if (schema) {
    validators.push(refuseOtherMediaTypes);
    const validateJson = zValidator('json', schema as ZodType, hook, parsing);
    validators.push(body?.required === false ? withoutBodyAsNone(validateJson) : validateJson);
  }
  return validators;
}

/** Schemas found to need zod's asynchronous parse (an async refinement or transform). */
const asynchronous = new WeakSet<ZodType>();

/**
 * `schema.safeParseAsync(value)`'s result, parsed synchronously when the schema allows: zod
 * runs the parser it compiles for an object only in a synchronous parse (the asynchronous one
 * walks every key of the shape generically, a list's 30-odd optional filters on every request).
 * A schema that turns out to be asynchronous is parsed asynchronously from then on.
 */
function parseSoonest<T extends ZodType>(
  schema: T,
  value: unknown,
): z.ZodSafeParseResult<z.output<T>> | Promise<z.ZodSafeParseResult<z.output<T>>> {
  if (!asynchronous.has(schema)) {
    try {
      return schema.safeParse(value);
    } catch (error) {
      if (!(error instanceof z.core.$ZodAsyncError)) throw error;
      asynchronous.add(schema);
    }
  }
  return schema.safeParseAsync(value);
}

/** An optional body (a conversion's): none at all is `{}`, whatever the content type says. */
function withoutBodyAsNone(validateJson: MiddlewareHandler): MiddlewareHandler {
  return async function validateOptionalJson(c, next) {
    const empty = c.req.raw.body === null || (await c.req.arrayBuffer()).byteLength === 0;
    if (!empty) return validateJson(c, next);
    c.req.addValidatedData('json', {});
    await next();
  };
}

/**
 * zValidator('header') as it validates, but reading only the headers the schema declares:
 * it hands zod every request header, which makes @hono/node-server build a whole `Headers`
 * per request, and zod drops the undeclared ones anyway (same data, same issues).
 */
function validateHeaders(schema: ZodObject, hook: (result: unknown) => void): MiddlewareHandler {
  const names = Object.keys(schema.shape);
  return async function validateDeclaredHeaders(c, next) {
    const value: Record<string, string> = {};
    for (const name of names) {
      const header = c.req.header(name);
      if (header !== undefined) value[name] = header;
    }
    const result = await parseSoonest(schema, value);
    hook({ data: value, ...result, target: 'header' });
    if (!result.success) return c.json(result, 400);
    c.req.addValidatedData('header', result.data as object);
    await next();
  };
}

/** A body in another media type than JSON is refused (415, answered `requete_invalide`). */
const refuseOtherMediaTypes: MiddlewareHandler = async function refuseOtherMediaTypes(c, next) {
  const type = c.req.header('content-type');
  const unsupported = type
    ? !JSON_TYPE.test(type)
    : c.req.raw.body !== null && (await c.req.arrayBuffer()).byteLength > 0;
  if (unsupported) throw new HTTPException(415, { message: 'Unsupported Media Type' });
  await next();
};
