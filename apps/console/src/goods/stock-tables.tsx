import { Link } from 'wouter';
import type { Catalogue } from '../records/catalogue';
import type { ResourceInfo } from '../records/catalogue-types';
import { useReferenceLabels } from '../records/reference-labels';
import { formatDateTime, humanize } from '../ui/format';
import { formatAmount } from '../ui/money';

type Row = Record<string, unknown>;

/** The stock views (SPEC §18), read-only resources of the catalogue. */
export function stockViews(catalogue: Catalogue): {
  levels: ResourceInfo | undefined;
  ledger: ResourceInfo | undefined;
} {
  return {
    levels: catalogue.byName.get('stock_level'),
    ledger: catalogue.byName.get('stock_ledger_entry'),
  };
}

/** A reference of a row as a link to its record, named by its label once read. */
function RefLink({
  catalogue,
  target,
  id,
  label,
}: {
  catalogue: Catalogue;
  target: string;
  id: unknown;
  label: (target: string, id: unknown) => string | undefined;
}) {
  const resource = catalogue.byName.get(target);
  if (typeof id !== 'string') return <>—</>;
  const text = label(target, id) ?? `${humanize(target)} ${id.slice(-8)}`;
  return resource ? <Link href={`/records/${resource.path}/${id}`}>{text}</Link> : text;
}

const REFS = [
  ['product_id', 'product'],
  ['warehouse_id', 'warehouse'],
  ['location_id', 'stock_location'],
] as const;

/**
 * Stock levels: what each internal location holds of each product, reserved, available and its
 * value (company currency). `without` leaves out a column every row shares (the product, on
 * its own page).
 */
export function LevelsTable({
  catalogue,
  rows,
  caption,
  without,
}: {
  catalogue: Catalogue;
  rows: readonly Row[];
  caption: string;
  without?: 'product_id';
}) {
  const refs = REFS.filter(([field]) => field !== without);
  const label = useReferenceLabels(
    catalogue,
    refs.map(([field, target]) => ({ target, ids: rows.map((r) => r[field]) })),
  );
  const labelOf = (target: string, id: unknown) => label(target, id);
  return (
    <div className="table-wrap">
      <table className="stacked stacked-inline">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {refs.map(([field]) => (
              <th key={field} scope="col">
                {humanize(field)}
              </th>
            ))}
            <th scope="col" className="number">
              On hand
            </th>
            <th scope="col" className="number">
              Reserved
            </th>
            <th scope="col" className="number">
              Available
            </th>
            <th scope="col" className="number">
              Value
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={String(row.id)}>
              {refs.map(([field, target]) => (
                <td key={field} data-label={humanize(field)}>
                  <RefLink catalogue={catalogue} target={target} id={row[field]} label={labelOf} />
                </td>
              ))}
              <td className="number" data-label="On hand">
                {String(row.on_hand)}
              </td>
              <td className="number" data-label="Reserved">
                {String(row.reserved)}
              </td>
              <td className="number" data-label="Available">
                {String(row.available)}
              </td>
              <td className="number" data-label="Value">
                {formatAmount(row.value_cents as number)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Stock ledger entries, each linking to the document that moved it (`source_type`, `source_id`). */
export function LedgerTable({
  catalogue,
  rows,
  caption,
}: {
  catalogue: Catalogue;
  rows: readonly Row[];
  caption: string;
}) {
  const sourceTypes = [...new Set(rows.map((r) => String(r.source_type)))];
  const label = useReferenceLabels(catalogue, [
    { target: 'stock_location', ids: rows.map((r) => r.location_id) },
    ...sourceTypes.map((type) => ({
      target: type,
      ids: rows.filter((r) => r.source_type === type).map((r) => r.source_id),
    })),
  ]);
  const labelOf = (target: string, id: unknown) => label(target, id);
  return (
    <div className="table-wrap">
      <table className="stacked stacked-inline">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Posted</th>
            <th scope="col">Document</th>
            <th scope="col">Location</th>
            <th scope="col" className="number">
              Quantity
            </th>
            <th scope="col" className="number">
              On hand after
            </th>
            <th scope="col" className="number">
              Value
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={String(row.id)}>
              <td className="nowrap" data-label="Posted">
                {formatDateTime(String(row.posted_at))}
              </td>
              <td data-label="Document">
                <RefLink
                  catalogue={catalogue}
                  target={String(row.source_type)}
                  id={row.source_id}
                  label={labelOf}
                />
              </td>
              <td data-label="Location">
                <RefLink
                  catalogue={catalogue}
                  target="stock_location"
                  id={row.location_id}
                  label={labelOf}
                />
              </td>
              <td className="number" data-label="Quantity">
                {String(row.quantity)}
              </td>
              <td className="number" data-label="On hand after">
                {String(row.on_hand_after)}
              </td>
              <td className="number" data-label="Value">
                {formatAmount(row.value_cents as number)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
