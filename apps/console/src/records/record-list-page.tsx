import { useState } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { useMe } from '../api/auth';
import { raw } from '../api/client';
import { useLoad } from '../api/use-load';
import { ImportEInvoiceForm } from '../einvoicing/import-form';
import { ErrorBanner, Loading } from '../ui/alert';
import { NotFoundPage } from '../ui/not-found-page';
import { Page } from '../ui/page';
import {
  type Catalogue,
  canWrite,
  fieldLabels,
  recordLabel,
  resourceNoun,
  resourceTitle,
  useCatalogue,
} from './catalogue';
import type { FieldInfo, ResourceInfo } from './catalogue-types';
import { kindOf } from './field-kinds';
import { FilterEditor } from './filter-editor';
import { apiQuery, type ListState, parseListState, searchOf } from './list-query';
import { useReferenceLabels } from './reference-labels';
import { displayValue } from './values';

type Row = Record<string, unknown>;
interface ListPage {
  data: Row[];
  next_cursor: string | null;
}

const MAX_COLUMNS = 6;

/** The columns a list shows: the label, the status, then required scalar fields and totals. */
export function listColumns(resource: ResourceInfo): FieldInfo[] {
  const label = resource.fields.find((f) => f.name === resource.label);
  const status = resource.fields.find((f) => f.name === 'status');
  const rest = resource.fields.filter(
    (f) =>
      f !== label &&
      f !== status &&
      kindOf(f).listed &&
      f.name !== 'id' &&
      (f.required || f.name === 'total_cents') &&
      !['created_at', 'updated_at', 'subtotal_cents', 'tax_cents'].includes(f.name),
  );
  return [label, status, ...rest].filter((f): f is FieldInfo => !!f).slice(0, MAX_COLUMNS);
}

/** `/records/:path`: a resource's list, filtered, sorted and paged through the address. */
export function RecordListPage() {
  const { path } = useParams<{ path: string }>();
  const catalogue = useCatalogue();
  const resource = catalogue.byPath.get(path);
  if (!resource) return <NotFoundPage />;
  return <RecordList key={path} catalogue={catalogue} resource={resource} />;
}

function RecordList({ catalogue, resource }: { catalogue: Catalogue; resource: ResourceInfo }) {
  const me = useMe();
  const search = useSearch();
  const [, navigate] = useLocation();
  const state = parseListState(resource, search);
  const [previous, setPrevious] = useState<(string | undefined)[]>([]);
  const list = useLoad(
    (signal) => raw.get(`/api/v1/${resource.path}`, { query: apiQuery(state), signal }),
    [resource.path, search],
  );
  const page = list.data as ListPage | undefined;
  const columns = listColumns(resource);
  const labels = fieldLabels(resource.fields);
  const currencyField = resource.fields.some((f) => f.name === 'currency');
  const label = useReferenceLabels(
    catalogue,
    columns
      .filter((c) => kindOf(c).shown === 'reference' && c.ref)
      .map((c) => ({ target: c.ref!, ids: page?.data.map((row) => row[c.name]) ?? [] })),
  );

  const go = (next: ListState) => navigate(`/records/${resource.path}${searchOf(next)}`);
  const sortBy = (field: string) => {
    const direction =
      state.order?.field === field && state.order.direction === 'asc' ? 'desc' : 'asc';
    setPrevious([]);
    go({ ...state, order: { field, direction }, cursor: undefined });
  };
  const title = resourceTitle(resource);

  return (
    <Page
      title={title}
      actions={
        canWrite(me, resource.module) && !resource.readOnly ? (
          <Link href={`/records/${resource.path}/new`} className="button button-primary">
            New {resourceNoun(resource)}
          </Link>
        ) : null
      }
    >
      <p className="lead">
        {resource.description} <Link href="/records">All resources</Link>
      </p>
      {resource.name === 'supplier_invoice' && canWrite(me, 'accounting') ? (
        <ImportEInvoiceForm />
      ) : null}
      <FilterEditor
        catalogue={catalogue}
        resource={resource}
        filters={state.filters}
        onApply={(filters) => {
          setPrevious([]);
          go({ ...state, filters, cursor: undefined });
        }}
      />
      <ErrorBanner error={list.error} />
      {page ? (
        page.data.length === 0 ? (
          <p>No {resourceNoun(resource)} matches.</p>
        ) : (
          <div className="table-wrap">
            <table aria-busy={list.loading}>
              <caption className="visually-hidden">{title}</caption>
              <thead>
                <tr>
                  {columns.map((c) => {
                    const sorted =
                      state.order?.field === c.name ? state.order.direction : undefined;
                    return (
                      <th
                        key={c.name}
                        scope="col"
                        aria-sort={
                          sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined
                        }
                      >
                        {c.sortable ? (
                          <button type="button" className="sort" onClick={() => sortBy(c.name)}>
                            {labels.get(c.name)}
                            <span aria-hidden="true">
                              {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}
                            </span>
                          </button>
                        ) : (
                          labels.get(c.name)
                        )}
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {page.data.map((row) => (
                  <tr key={String(row.id)}>
                    {columns.map((c, i) =>
                      i === 0 ? (
                        <th
                          key={c.name}
                          scope="row"
                          // A document number reads as one word: never split at its hyphens.
                          className={resource.label === 'number' ? 'nowrap' : undefined}
                        >
                          <Link href={`/records/${resource.path}/${String(row.id)}`}>
                            {recordLabel(resource, row)}
                          </Link>
                        </th>
                      ) : (
                        <td key={c.name} className={kindOf(c).numeric.list ? 'number' : undefined}>
                          {c.name === 'status' ? (
                            <span className="badge">{String(row.status)}</span>
                          ) : kindOf(c).shown === 'reference' ? (
                            (label(c.ref, row[c.name]) ?? displayValue(c, row[c.name]))
                          ) : (
                            displayValue(c, row[c.name], currencyField ? row.currency : undefined)
                          )}
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : list.loading ? (
        <Loading what={title.toLowerCase()} />
      ) : null}
      <nav className="row pager" aria-label="Pages">
        {state.cursor ? (
          <button
            type="button"
            className="button"
            onClick={() => {
              const before = previous.at(-1);
              setPrevious((p) => p.slice(0, -1));
              go({ ...state, cursor: before });
            }}
          >
            {previous.length ? 'Previous page' : 'First page'}
          </button>
        ) : null}
        {page?.next_cursor ? (
          <button
            type="button"
            className="button"
            onClick={() => {
              setPrevious((p) => [...p, state.cursor]);
              go({ ...state, cursor: page.next_cursor! });
            }}
          >
            Next page
          </button>
        ) : null}
      </nav>
    </Page>
  );
}
