import { ApiError } from '@erp/contract';

interface PgError {
  code?: string;
  detail?: string;
  table?: string;
  constraint?: string;
  column?: string;
}

/** Maps the database's integrity errors to the API's codes; anything else is rethrown. */
export function mapWriteError(error: unknown, operation: 'write' | 'delete'): never {
  const pg = error as PgError;
  switch (pg.code) {
    case '23503': {
      if (operation === 'delete') {
        throw new ApiError('conflit', 'Other records refer to this one.', {
          reason: 'referenced',
          referenced_by: pg.table,
        });
      }
      // With row-level security PostgreSQL hides the key in `detail`; the constraint name
      // (<table>_tenant_id_<column>_fkey) still says which reference failed. The line-items
      // trigger (db reference-ddl.ts) puts the line's path in `column` (`lines.2.product_id`).
      const column =
        pg.column ?? /_tenant_id_(\w+)_fkey$/.exec(pg.constraint ?? '')?.[1] ?? 'reference';
      throw new ApiError('requete_invalide', `No such record for ${column} in this tenant.`, {
        issues: [
          {
            location: 'json',
            path: column,
            code: 'not_found',
            message: 'no such record in this tenant',
          },
        ],
      });
    }
    case '23505':
      throw new ApiError('conflit', 'A record with these values already exists.', {
        reason: 'duplicate',
        constraint: pg.constraint,
      });
    case '23514':
    case '22003':
    case '22P02':
      throw new ApiError('requete_invalide', 'A value is out of range.', {
        constraint: pg.constraint,
      });
    case '22021': // character_not_in_repertoire: a NUL in a text value
    case '22P05': // untranslatable_character: \u0000 in a JSON value
      throw new ApiError('requete_invalide', 'Text values cannot contain the NUL character.', {
        issues: [{ location: 'json', path: '', code: 'invalid_string', message: 'NUL character' }],
      });
    case '40001':
    case '40P01':
      throw new ApiError('conflit', 'A concurrent change got there first; retry.', {
        reason: 'concurrent_update',
      });
    default:
      throw error;
  }
}
