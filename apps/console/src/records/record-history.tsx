import type { ApiError, HistoryEntry } from '@erp/sdk';
import { useEffect, useRef, useState } from 'react';
import { raw } from '../api/client';
import { ErrorBanner, Loading } from '../ui/alert';
import { formatDateTime, humanize } from '../ui/format';
import { fieldLabels } from './catalogue';
import type { FieldInfo, ResourceInfo } from './catalogue-types';
import { kindOf } from './field-kinds';
import { displayValue } from './values';

interface HistoryPage {
  data: HistoryEntry[];
  next_cursor: string | null;
}

const PAGE_SIZE = 20;

/**
 * A record's history (`GET /{path}/{id}/history`): who changed what and when, newest first,
 * with older versions a button away. Reloaded when the record changes (an action taken on the
 * page moves its `updated_at`). References show the labels the page already knows.
 */
export function RecordHistory({
  resource,
  id,
  changedAt,
  currency,
  label,
}: {
  resource: ResourceInfo;
  id: string;
  changedAt: string;
  currency: unknown;
  label: (target: string | undefined, id: unknown) => string | undefined;
}) {
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(true);
  const controller = useRef<AbortController>(undefined);

  const load = async (after: string | null) => {
    controller.current?.abort();
    controller.current = new AbortController();
    const { signal } = controller.current;
    setLoading(true);
    const answer = await raw.get(`/api/v1/${resource.path}/${id}/history`, {
      query: { page_size: PAGE_SIZE, cursor: after ?? undefined },
      signal,
    });
    if (signal.aborted) return;
    setLoading(false);
    setError(answer.error);
    if (answer.error) return;
    const page = answer.data as HistoryPage;
    setEntries((shown) => (after ? [...shown, ...page.data] : page.data));
    setCursor(page.next_cursor);
  };
  // A new version of the record (an action taken on the page) reloads its history.
  useEffect(() => {
    void load(null);
    return () => controller.current?.abort();
  }, [resource.path, id, changedAt]);

  const fields = new Map(resource.fields.map((f) => [f.name, f]));
  const titles = fieldLabels(resource.fields);
  return (
    <section aria-labelledby="record-history" className="record-history">
      <h2 id="record-history">History</h2>
      <ErrorBanner error={error} />
      {entries.length === 0 && loading ? <Loading what="the history" /> : null}
      {entries.length === 0 && !loading && !error ? <p>No recorded change yet.</p> : null}
      {entries.length > 0 ? (
        <div className="table-wrap">
          <table className="stacked">
            <caption className="visually-hidden">
              Versions of this {humanize(resource.name).toLowerCase()}, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.version}>
                  <td className="number" data-label="Version">
                    {entry.version}
                  </td>
                  <td data-label="When">
                    <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                  </td>
                  <td data-label="Who">
                    {entry.actor.name ?? 'Deleted'}
                    {entry.actor.type === 'api_key' ? ' (API key)' : ''}
                  </td>
                  <td data-label="Action">{humanize(entry.action)}</td>
                  <td data-label="Changes">
                    <Changes
                      changes={entry.changes}
                      fields={fields}
                      titles={titles}
                      currency={currency}
                      label={label}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {cursor ? (
        <button type="button" className="button" disabled={loading} onClick={() => load(cursor)}>
          {loading ? 'Loading…' : 'Show older versions'}
        </button>
      ) : null}
    </section>
  );
}

function Changes({
  changes,
  fields,
  titles,
  currency,
  label,
}: {
  changes: HistoryEntry['changes'];
  fields: Map<string, FieldInfo>;
  titles: Map<string, string>;
  currency: unknown;
  label: (target: string | undefined, id: unknown) => string | undefined;
}) {
  // In the record's own field order (the API's object keys come in PostgreSQL's jsonb order).
  const order = [...fields.keys()];
  const names = Object.keys(changes).sort((a, b) => rank(order, a) - rank(order, b));
  if (names.length === 0) return <>—</>;
  const show = (name: string, value: unknown) => {
    const field = fields.get(name);
    if (!field) return JSON.stringify(value);
    if (kindOf(field).shown === 'reference' && value !== null)
      return label(field.ref, value) ?? String(value);
    return displayValue(field, value, currency);
  };
  return (
    <ul className="history-changes">
      {names.map((name) => {
        const [before, after] = changes[name] as [unknown, unknown];
        return (
          <li key={name}>
            <span className="history-field">{titles.get(name) ?? humanize(name)}</span>:{' '}
            {show(name, before)} → {show(name, after)}
          </li>
        );
      })}
    </ul>
  );
}

function rank(order: string[], name: string): number {
  const i = order.indexOf(name);
  return i < 0 ? order.length : i;
}
