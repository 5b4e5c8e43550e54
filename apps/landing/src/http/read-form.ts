import { ApiError } from '@erp/contract';
import { readJson, readUrlEncoded } from '@erp/http';
import type { Context } from 'hono';

/**
 * The submitted fields, from JSON or from a plain HTML form (urlencoded; a repeated name gives
 * an array). Blank fields count as absent, as a browser sends every input of a form.
 */
export async function readFormFields(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  let fields: unknown;
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
    fields = await readUrlEncoded(c);
  } else if (/^application\/json\b/i.test(type)) {
    fields = await readJson(c);
  } else {
    throw new ApiError(
      'requete_invalide',
      'Send the form as application/json or application/x-www-form-urlencoded.',
      {
        issues: [
          {
            location: 'header',
            path: 'content-type',
            code: 'invalid_type',
            message: 'Unsupported content type',
          },
        ],
      },
    );
  }
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) return fields;
  return Object.fromEntries(
    Object.entries(fields).filter(
      ([, value]) => !(typeof value === 'string' && value.trim() === ''),
    ),
  );
}
