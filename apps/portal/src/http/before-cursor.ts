import { ApiError, isUuid } from '@erp/contract';

/**
 * The cursor of a newest-first list keyed by UUIDv7 ids (the delivery log, the audit log):
 * opaque to clients, base64url of the page's last id.
 */
export function encodeBeforeCursor(lastId: string): string {
  return Buffer.from(`before:${lastId}`).toString('base64url');
}

/** The id a cursor names; anything else is `requete_invalide` on `cursor`. */
export function decodeBeforeCursor(raw: string): string {
  const id = /^before:(.+)$/.exec(Buffer.from(raw, 'base64url').toString('utf8'))?.[1];
  if (id && isUuid(id)) return id;
  throw new ApiError('requete_invalide', 'The cursor is invalid.', {
    issues: [
      {
        location: 'query',
        path: 'cursor',
        code: 'invalid_cursor',
        message: 'use next_cursor as returned',
      },
    ],
  });
}
