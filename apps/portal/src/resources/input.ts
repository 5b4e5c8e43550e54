import { randomUUID } from 'node:crypto';
import { ApiError, documentTotals, fieldType, type Resource, toParameter } from '@erp/contract';

/** A column to write: its name and its parameter, with the cast PostgreSQL needs. */
export interface ColumnValue {
  column: string;
  value: unknown;
  cast: string;
  /** The body field the value comes from, to name it if PostgreSQL refuses it. */
  label: string;
  /** Lines with fields the server sets, which a PATCH keeps (SPEC §18). */
  keepsLineFields?: boolean;
}

/** Turns a validated create or patch body into column values (totals included when lines change). */
export function columnValues(resource: Resource, body: Record<string, unknown>): ColumnValue[] {
  const columns: ColumnValue[] = [];
  for (const [name, field] of Object.entries(resource.fields)) {
    if (!(name in body)) continue;
    const lines = field.type === 'lines';
    columns.push({
      column: name,
      value: toParameter(field, lines ? withLineIds(body[name]) : body[name]),
      cast: fieldType(field).cast,
      label: name,
      ...(lines && field.readOnly ? { keepsLineFields: true } : {}),
    });
  }
  const linesField = resource.totalsFrom;
  if (linesField && linesField in body) {
    let totals: { subtotal: number; tax: number };
    try {
      totals = computeTotals((body[linesField] as Line[] | null) ?? []);
    } catch (error) {
      // The exact amounts refuse what a safe integer cannot hold (or a quantity they cannot
      // read): bad input, never a 500.
      if (error instanceof RangeError) throw totalsTooLarge(linesField);
      throw error;
    }
    const total = totals.subtotal + totals.tax;
    // Each line is within bounds, but their products and sum may not be: money must stay exact.
    if (![totals.subtotal, totals.tax, total].every(Number.isSafeInteger))
      throw totalsTooLarge(linesField);
    columns.push(
      { column: 'subtotal_cents', value: totals.subtotal, cast: 'int8', label: linesField },
      { column: 'tax_cents', value: totals.tax, cast: 'int8', label: linesField },
      { column: 'total_cents', value: total, cast: 'int8', label: linesField },
    );
  }
  return columns;
}

function totalsTooLarge(field: string): ApiError {
  return new ApiError('requete_invalide', `The totals of ${field} are too large.`, {
    issues: [
      {
        location: 'json',
        path: field,
        code: 'too_big',
        message: `totals must stay within ±${Number.MAX_SAFE_INTEGER} minor units`,
      },
    ],
  });
}

type Line = Record<string, unknown>;

/**
 * A client's body without what the server sets on lines (SPEC §18: a line's source line and
 * counts), which a client may send back as it read them and which are ignored: a PATCH keeps
 * the server's (`erp_keep_line_fields`), a new line has none.
 */
export function withoutServerLineFields(
  resource: Resource,
  body: Record<string, unknown>,
): Record<string, unknown> {
  let out = body;
  for (const [name, field] of Object.entries(resource.fields)) {
    if (field.type !== 'lines' || !field.readOnly || !Array.isArray(body[name])) continue;
    const serverSet = new Set(Object.keys(field.readOnly));
    out = {
      ...out,
      [name]: (body[name] as Line[]).map((line) =>
        Object.fromEntries(Object.entries(line).filter(([key]) => !serverSet.has(key))),
      ),
    };
  }
  return out;
}

/** Every line has its identity (SPEC §18): the one sent back, else a new one. */
function withLineIds(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return (value as Line[]).map((line) =>
    typeof line.id === 'string' ? line : { id: randomUUID(), ...line },
  );
}

/**
 * A document's totals, exactly (SPEC §17): each line's net rounded once, the tax per document
 * and per tax and rate on the sum of the nets, rounded once (`documentTotals`).
 */
export function computeTotals(lines: Line[]): { subtotal: number; tax: number } {
  const totals = documentTotals(
    lines.map((line) => ({
      quantity: line.quantity as string,
      unit_price_cents: Number(line.unit_price_cents),
      tax_rate: (line.tax_rate as string | undefined) ?? '0',
      tax_id: (line.tax_id as string | undefined) ?? null,
    })),
  );
  return { subtotal: totals.subtotal_cents, tax: totals.tax_cents };
}
