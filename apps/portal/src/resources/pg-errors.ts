import { ApiError } from '@erp/contract';
import { invalidCursor } from './read';
import { CURSOR, type Params } from './sql-params';

interface PgError {
  code?: string;
  detail?: string;
  table?: string;
  constraint?: string;
  column?: string;
  /** Context; a value refused at bind time reads `unnamed portal parameter $3 = '...'`. */
  where?: string;
}

/**
 * A data exception (SQLSTATE class 22: a date out of range, a number overflowing, a NUL in
 * text...) is the client's value, never the server's failure. The value parsers refuse such
 * values before any SQL; this is the safety net behind them.
 */
function isDataException(pg: PgError): boolean {
  return typeof pg.code === 'string' && pg.code.startsWith('22');
}

/** What the refused parameter stands for (a field, `cursor`), when PostgreSQL says which it was. */
function refusedParameter(pg: PgError, params?: Params): string | undefined {
  const n = /\bparameter \$(\d+)\b/.exec(pg.where ?? '')?.[1];
  return n === undefined ? undefined : params?.labelOf(Number(n));
}

/** Maps a list's failures on the client's values to `filtre_invalide` (or an invalid cursor); anything else is rethrown. */
export function mapReadError(error: unknown, params: Params): never {
  const pg = error as PgError;
  if (!isDataException(pg)) throw error;
  const field = refusedParameter(pg, params);
  if (field === CURSOR) throw invalidCursor();
  throw new ApiError(
    'filtre_invalide',
    field ? `A value of ${field} is out of range.` : 'A filter value is out of range.',
    { ...(field ? { field } : {}), reason: 'invalid_value' },
  );
}

/** Maps the database's integrity errors to the API's codes; anything else is rethrown. */
export function mapWriteError(
  error: unknown,
  operation: 'write' | 'delete',
  params?: Params,
): never {
  const pg = error as PgError;
  if (isDataException(pg)) throw invalidValue(pg, refusedParameter(pg, params));
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
      if (pg.constraint?.endsWith('_posted_balanced')) throw unbalanced();
      // The goods' last walls (SPEC §18): the engine checks first, with the figures.
      if (pg.constraint?.endsWith('_counted_within'))
        throw new ApiError('quantite_depassee', 'More than remains on a line.', {
          line_id: null,
          constraint: pg.constraint,
        });
      if (pg.constraint === 'stock_levels_on_hand_not_negative')
        throw new ApiError('stock_insuffisant', 'Not enough stock at a location.', {
          constraint: pg.constraint,
        });
      if (
        pg.constraint?.endsWith('_amount_due_within') ||
        pg.constraint?.endsWith('_allocated_within')
      )
        throw new ApiError('montant_depasse', 'More than what is left to settle.', {
          constraint: pg.constraint,
        });
      throw new ApiError('requete_invalide', 'A value is out of range.', {
        constraint: pg.constraint,
      });
    case 'EP002':
    case 'EP003':
    case 'EP004':
    case 'EP006':
    case 'EP007':
      throw booksError(pg);
    case 'EP010': {
      const params = parseDetail(pg.detail);
      throw new ApiError(
        'stock_insuffisant',
        `Only ${params.available} of product ${params.product_id} at location ${params.location_id}; ${params.requested} would leave.`,
        params,
      );
    }
    case 'EP011':
      throw new ApiError('requete_invalide', 'A stock movement moves a quantity other than zero.', {
        issues: [{ location: 'json', path: 'quantity', code: 'zero_quantity', message: 'zero' }],
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

/** A body value PostgreSQL refused, named when the statement's parameters say which field it was. */
function invalidValue(pg: PgError, field: string | undefined): ApiError {
  // 22021 and 22P05: a NUL (or a character the encoding lacks) in a text or JSON value.
  const message =
    pg.code === '22021' || pg.code === '22P05'
      ? 'Text values cannot contain the NUL character.'
      : 'A value is out of range.';
  return new ApiError('requete_invalide', field ? `${message.slice(0, -1)} (${field}).` : message, {
    issues: [
      {
        location: 'json',
        path: field ?? '',
        code: 'invalid_value',
        message: 'PostgreSQL cannot store this value',
      },
    ],
  });
}

/**
 * The books' rules as the database states them (SQLSTATE `EP0xx`, parameters as JSON in DETAIL:
 * packages/db catalogue-schema/invariants.ts), in the catalogue's words.
 */
function booksError(pg: PgError): ApiError {
  const params = parseDetail(pg.detail);
  switch (pg.code) {
    case 'EP002':
      return new ApiError(
        'compte_invalide',
        params.reason === 'party_required'
          ? `Account ${params.account_id} is a receivable or payable account: its lines name their customer or supplier.`
          : params.reason === 'not_party_account'
            ? `Account ${params.account_id} is not a receivable or payable account: a line naming a customer (supplier) posts to one.`
            : `Account ${params.account_id} takes no posting (${params.reason}).`,
        params,
      );
    case 'EP003':
      return new ApiError(
        'periode_cloturee',
        `The period of ${params.date} is closed: nothing more is posted in it.`,
        params,
      );
    case 'EP004':
      return new ApiError(
        'montant_depasse',
        `More than what is left (${params.available_cents} cents).`,
        params,
      );
    case 'EP006':
      return new ApiError(
        'transition_invalide',
        'A posted journal entry is final: cancel it, which posts its reversal.',
        { ...params, from: 'comptabilise', action: params.operation },
      );
    default:
      return new ApiError('requete_invalide', allocationMessage(params.reason), {
        ...params,
        issues: [
          {
            location: 'json',
            path: '',
            code: String(params.reason),
            message: allocationMessage(params.reason),
          },
        ],
      });
  }
}

function allocationMessage(reason: unknown): string {
  switch (reason) {
    case 'not_posted':
      return 'Both sides of an allocation must be posted.';
    case 'party':
      return 'Both sides of an allocation must name the same customer or supplier.';
    case 'currency':
      return 'Both sides of an allocation must be in the same currency.';
    case 'direction':
      return 'Money received settles invoices and debit notes; money paid settles supplier invoices and credit notes (refunds).';
    default:
      return 'An allocation applies a payment to one document, or a credit note to an invoice (a debit note to a supplier invoice).';
  }
}

function parseDetail(detail: string | undefined): Record<string, unknown> {
  try {
    const parsed = JSON.parse(detail ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** An entry refused by the database's balance CHECK (the engine checks first, with the sums). */
export function unbalanced(debit?: number, credit?: number): ApiError {
  return new ApiError(
    'ecriture_desequilibree',
    'A posted entry needs at least two lines, each on one side, and as much debit as credit.',
    { ...(debit === undefined ? {} : { debit_cents: debit, credit_cents: credit }) },
  );
}
