import { ApiError } from '@erp/contract';
import { invalidRequest } from '@erp/http';
import type { Context } from 'hono';
import type { z } from 'zod';

/** The JSON body validated by `schema`; anything else is `requete_invalide` (never a 500). */
export async function readJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
): Promise<z.infer<T>> {
  return validate(schema, await readJson(c));
}

/** The parsed JSON body, or `requete_invalide` when it is not JSON. */
export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError('requete_invalide', 'Send the body as application/json.', {
      issues: [
        {
          location: 'header',
          path: 'content-type',
          code: 'invalid_type',
          message: 'Expected application/json',
        },
      ],
    });
  }
  try {
    return await c.req.json();
  } catch {
    throw new ApiError('requete_invalide', 'The request body is not valid JSON.', {
      issues: [{ location: 'body', path: '', code: 'invalid_json', message: 'Malformed JSON' }],
    });
  }
}

/** `value` checked against `schema`, with every issue in `params.issues`. */
export function validate<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidRequest('body', parsed.error);
  return parsed.data;
}
