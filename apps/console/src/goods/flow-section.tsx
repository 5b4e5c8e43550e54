import { Link } from 'wouter';
import { useMe } from '../api/auth';
import { raw } from '../api/client';
import { useLoad } from '../api/use-load';
import { type Catalogue, canRead, recordLabel, resourceNoun } from '../records/catalogue';
import type { ResourceInfo } from '../records/catalogue-types';
import { useReferenceLabels } from '../records/reference-labels';
import { ErrorBanner, Loading } from '../ui/alert';
import { formatDateTime, humanize } from '../ui/format';
import { type FlowLink, sourcesOf, targetsOf } from './flow';

type Row = Record<string, unknown>;

/** A target's sources (SPEC §18): "Made from SO-2026-00012", each a link. */
export function MadeFrom({
  catalogue,
  resource,
  record,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  record: Row;
}) {
  const sources = sourcesOf(catalogue, resource).filter(
    (l) => typeof record[l.conversion.link] === 'string',
  );
  const label = useReferenceLabels(
    catalogue,
    sources.map((l) => ({ target: l.source.name, ids: [record[l.conversion.link]] })),
  );
  if (!sources.length) return null;
  return (
    <p className="made-from">
      Made from{' '}
      {sources.map((l, i) => {
        const id = String(record[l.conversion.link]);
        return (
          <span key={l.conversion.link}>
            {i ? ', ' : ''}
            <Link href={`/records/${l.source.path}/${id}`}>
              {label(l.source.name, id) ?? `${resourceNoun(l.source)} ${id.slice(-8)}`}
            </Link>
          </span>
        );
      })}
    </p>
  );
}

/**
 * The documents a source was made into (its deliveries, invoices…), found by their link field
 * (`GET /deliveries?sales_order_id=eq.<id>`), with number, status and a link each.
 */
export function MadeInto({
  catalogue,
  resource,
  record,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  record: Row;
}) {
  const me = useMe();
  const links = targetsOf(catalogue, resource).filter((l) => canRead(me, l.target.module));
  const id = String(record.id);
  const list = useLoad<{ link: FlowLink; row: Row }[]>(
    async (signal) => {
      const answers = await Promise.all(
        links.map((link) =>
          raw.get(`/api/v1/${link.target.path}`, {
            query: {
              [link.conversion.link]: `eq.${id}`,
              order: ['created_at.asc'],
              page_size: 100,
            },
            signal,
          }),
        ),
      );
      const error = answers.find((a) => a.error)?.error;
      if (error) return { error };
      return {
        data: answers.flatMap((answer, i) =>
          ((answer.data as { data?: Row[] }).data ?? []).map((row) => ({ link: links[i]!, row })),
        ),
      };
    },
    [links.map((l) => l.target.path).join(), id, String(record.updated_at)],
  );
  if (!links.length) return null;
  const rows = list.data;
  const kinds = links.map((l) => humanize(l.target.path).toLowerCase()).join(', ');
  return (
    <section aria-labelledby="made-into" className="made-into">
      <h2 id="made-into">Made into</h2>
      <ErrorBanner error={list.error} />
      {!rows && list.loading ? <Loading what={`the ${kinds}`} /> : null}
      {rows?.length === 0 ? <p>No {kinds} yet.</p> : null}
      {rows?.length ? (
        <div className="table-wrap">
          <table aria-labelledby="made-into" className="stacked stacked-inline">
            <thead>
              <tr>
                <th scope="col">Document</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ link, row }) => (
                <tr key={String(row.id)}>
                  <td data-label="Document">
                    {/* One grid item on a phone: the kind and its number on one line. */}
                    <span>
                      {humanize(link.target.name)}{' '}
                      <Link href={`/records/${link.target.path}/${String(row.id)}`}>
                        {recordLabel(link.target, row)}
                      </Link>
                    </span>
                  </td>
                  <td data-label="Status">
                    <span className="badge">{String(row.status)}</span>
                  </td>
                  <td data-label="Created" className="nowrap">
                    {formatDateTime(String(row.created_at))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
