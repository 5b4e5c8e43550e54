import { ApiError, parseFieldValue, type Resource } from '@erp/contract';
import type { OrderTerm } from './list-query';

/**
 * Cursors are opaque to clients: base64url of the order they belong to and the last row's
 * values of its terms. A cursor from another order, or a forged one, is refused.
 */
export function encodeCursor(order: OrderTerm[], values: string[]): string {
  return Buffer.from(JSON.stringify([signature(order), values])).toString('base64url');
}

/** The last row's order values, checked against each field's type. */
export function decodeCursor(resource: Resource, order: OrderTerm[], raw: string): string[] {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(decoded) || decoded[0] !== signature(order) || !Array.isArray(decoded[1]))
    throw invalidCursor();
  const values = decoded[1] as unknown[];
  if (values.length !== order.length) throw invalidCursor();
  return order.map((term, i) => {
    const value = values[i];
    const parsed =
      typeof value === 'string'
        ? parseFieldValue(resource.allFields[term.field]!, value)
        : undefined;
    if (parsed === undefined) throw invalidCursor();
    return parsed;
  });
}

function signature(order: OrderTerm[]): string {
  return order.map((t) => `${t.field}.${t.direction}`).join(',');
}

/** The answer to a cursor this API did not issue for this order. */
export function invalidCursor(): ApiError {
  return new ApiError('requete_invalide', 'The cursor is invalid or belongs to another order.', {
    issues: [
      {
        location: 'query',
        path: 'cursor',
        code: 'invalid_cursor',
        message: 'use next_cursor as returned, with the same order',
      },
    ],
  });
}
