import { useState } from 'react';
import { raw } from '../api/client';
import { useLoad } from '../api/use-load';
import { useCatalogue } from '../records/catalogue';
import type { FieldInfo } from '../records/catalogue-types';
import { ReferenceInput } from '../records/reference-input';
import { ErrorBanner, Loading } from '../ui/alert';
import { Field } from '../ui/field';
import { humanize } from '../ui/format';
import { NotFoundPage } from '../ui/not-found-page';
import { Page } from '../ui/page';
import { LevelsTable, stockViews } from './stock-tables';

type Row = Record<string, unknown>;
const PAGE = 100;
const FILTERS = ['warehouse_id', 'product_id'] as const;

/**
 * Inventory → Stock levels (SPEC §18): what every internal location holds, by product, with what
 * is reserved, available and its value; narrowed to a warehouse and a product, a page at a time.
 */
export function StockLevelsPage() {
  const catalogue = useCatalogue();
  const { levels } = stockViews(catalogue);
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const list = useLoad(
    (signal) =>
      raw.get(`/api/v1/${levels?.path ?? 'stock-levels'}`, {
        query: {
          ...Object.fromEntries(
            Object.entries(filters)
              .filter(([, v]) => v)
              .map(([k, v]) => [k, `eq.${v}`]),
          ),
          page_size: PAGE,
          ...(cursor ? { cursor } : {}),
        },
        signal,
      }),
    [JSON.stringify(filters), cursor],
  );
  if (!levels) return <NotFoundPage />;
  const page = list.data as { data?: Row[]; next_cursor?: string | null } | undefined;
  const rows = page?.data;
  const fields = FILTERS.map((name) => levels.fields.find((f) => f.name === name)).filter(
    (f): f is FieldInfo => !!f,
  );

  return (
    <Page title="Stock levels">
      <p className="lead">{levels.description}</p>
      <form className="filters row" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        {fields.map((f) => (
          <Field
            key={f.name}
            label={humanize(f.name)}
            hint={`— lists every ${humanize(f.name).toLowerCase()}.`}
          >
            {(props) => (
              <ReferenceInput
                catalogue={catalogue}
                // A filter, not a value to give: empty means every one.
                field={{ ...f, required: undefined }}
                value={filters[f.name] ?? ''}
                onChange={(value) => {
                  setCursors([]);
                  setFilters({ ...filters, [f.name]: value });
                }}
                control={props}
              />
            )}
          </Field>
        ))}
      </form>
      <ErrorBanner error={list.error} />
      {!rows && list.loading ? <Loading what="the stock levels" /> : null}
      {rows?.length === 0 ? <p>No stock here.</p> : null}
      {rows?.length ? (
        <LevelsTable catalogue={catalogue} rows={rows} caption="Stock levels" />
      ) : null}
      <div className="row">
        {cursors.length ? (
          <button type="button" className="button" onClick={() => setCursors(cursors.slice(0, -1))}>
            Previous page
          </button>
        ) : null}
        {page?.next_cursor ? (
          <button
            type="button"
            className="button"
            onClick={() => setCursors([...cursors, page.next_cursor!])}
          >
            Next page
          </button>
        ) : null}
      </div>
    </Page>
  );
}
