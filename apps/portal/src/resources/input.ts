import type { Field, LinesField, Resource } from '@erp/contract';
import { pgType } from './field-values';

/** A column to write: its name and its parameter, with the cast PostgreSQL needs. */
export interface ColumnValue {
  column: string;
  value: unknown;
  cast: string;
}

/** Turns a validated create or patch body into column values (totals included when lines change). */
export function columnValues(resource: Resource, body: Record<string, unknown>): ColumnValue[] {
  const columns: ColumnValue[] = [];
  for (const [name, field] of Object.entries(resource.fields)) {
    if (!(name in body)) continue;
    columns.push({ column: name, value: toParameter(field, body[name]), cast: pgType(field) });
  }
  if (resource.totalsFrom && resource.totalsFrom in body) {
    const totals = computeTotals((body[resource.totalsFrom] as Line[] | null) ?? []);
    columns.push(
      { column: 'subtotal_cents', value: totals.subtotal, cast: 'int8' },
      { column: 'tax_cents', value: totals.tax, cast: 'int8' },
      { column: 'total_cents', value: totals.subtotal + totals.tax, cast: 'int8' },
    );
  }
  return columns;
}

function toParameter(field: Field, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case 'decimal':
      return String(value);
    case 'lines':
      return JSON.stringify((value as Line[]).map((line) => normalizeLine(field, line)));
    case 'json':
      return JSON.stringify(value);
    default:
      return value;
  }
}

type Line = Record<string, unknown>;

/**
 * Decimals are stored and returned as strings, whichever form the client sent; ids in lowercase,
 * as a uuid column returns them (the database's line checks expect that canonical form).
 */
function normalizeLine(field: LinesField, line: Line): Line {
  const out: Line = {};
  for (const [name, spec] of Object.entries(field.fields)) {
    const value = line[name];
    if (value === undefined) continue;
    if (value === null) out[name] = null;
    else if (spec.type === 'decimal') out[name] = String(value);
    else if (spec.type === 'reference' || spec.type === 'uuid')
      out[name] = String(value).toLowerCase();
    else out[name] = value;
  }
  return out;
}

/**
 * Line amounts in cents: net = quantity × unit price, tax = net × rate %, each rounded half
 * away from zero per line (as invoices print them), then summed.
 */
export function computeTotals(lines: Line[]): { subtotal: number; tax: number } {
  let subtotal = 0;
  let tax = 0;
  for (const line of lines) {
    const net = roundHalfAway(Number(line.quantity) * Number(line.unit_price_cents));
    subtotal += net;
    tax += roundHalfAway((net * Number(line.tax_rate ?? 0)) / 100);
  }
  return { subtotal, tax };
}

function roundHalfAway(value: number): number {
  // The epsilon absorbs binary noise such as 1.005 × 100 = 100.49999…
  return Math.sign(value) * Math.round(Math.abs(value) + 1e-9);
}
