import { Link } from 'wouter';
import { raw } from '../api/client';
import { useLoad } from '../api/use-load';
import type { Catalogue } from '../records/catalogue';
import type { ResourceInfo } from '../records/catalogue-types';
import { ErrorBanner, Loading } from '../ui/alert';
import { formatDate } from '../ui/format';
import { formatAmount } from '../ui/money';
import { TableFrame } from '../ui/table-frame';
import { type Account, accountName, accountsByIds } from './accounts';
import {
  booksResource,
  entryState,
  postingLink,
  postingsFilter,
  referenceTo,
} from './books-catalogue';

type Row = Record<string, unknown>;
interface EntryLine {
  account_id: string;
  label?: string | null;
  debit_cents: number;
  credit_cents: number;
}

/**
 * A document's postings (SPEC §17): the journal entries that record it (by its column, or its
 * source type and id, as the catalogue says), each linked to its page, with its lines and
 * whether it stands or was reversed; on a journal entry's page, the entry reversing it.
 * Reloaded when the record changes (`changedAt`).
 */
export function PostingsSection({
  catalogue,
  resource,
  id,
  changedAt,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  id: string;
  changedAt: string;
}) {
  const entries = booksResource(catalogue, 'entry');
  if (!entries) return null;
  if (entries === resource) {
    // A journal entry's own lines are on its page: here, the entry that reverses it.
    const reverses = referenceTo(entries, entries);
    return reverses ? (
      <Postings
        title="Reversal"
        none="Not reversed."
        entries={entries}
        filter={{ [reverses.name]: `eq.${id}` }}
        changedAt={changedAt}
      />
    ) : null;
  }
  const link = postingLink(catalogue, resource);
  return link ? (
    <Postings
      title="Postings"
      none="Nothing posted for it yet."
      entries={entries}
      filter={postingsFilter(link, id)}
      changedAt={changedAt}
    />
  ) : null;
}

function Postings({
  title,
  none,
  entries,
  filter,
  changedAt,
}: {
  title: string;
  none: string;
  entries: ResourceInfo;
  filter: Record<string, string>;
  changedAt: string;
}) {
  const list = useLoad(
    (signal) =>
      raw.get(`/api/v1/${entries.path}`, { query: { ...filter, page_size: 100 }, signal }),
    [entries.path, JSON.stringify(filter), changedAt],
  );
  const rows = (list.data as { data?: Row[] } | undefined)?.data;
  const accountIds = (rows ?? []).flatMap((e) => lines(e).map((l) => l.account_id));
  const accounts = useLoad((signal) => accountsByIds(accountIds, signal), [accountIds.join()]);
  const numbers = new Map((rows ?? []).map((e) => [String(e.id), String(e.number)]));

  return (
    <section aria-labelledby="postings" className="postings">
      <h2 id="postings">{title}</h2>
      <ErrorBanner error={list.error ?? accounts.error} />
      {!rows && list.loading ? <Loading what={title.toLowerCase()} /> : null}
      {rows?.length === 0 ? <p>{none}</p> : null}
      {rows?.map((entry) => (
        <EntryCard
          key={String(entry.id)}
          entries={entries}
          entry={entry}
          accounts={accounts.data}
          reverses={numbers.get(String(entry.reversed_entry_id))}
        />
      ))}
    </section>
  );
}

const lines = (entry: Row) => (entry.lines as EntryLine[] | null) ?? [];

function EntryCard({
  entries,
  entry,
  accounts,
  reverses,
}: {
  entries: ResourceInfo;
  entry: Row;
  accounts: Map<string, Account> | undefined;
  reverses: string | undefined;
}) {
  const number = String(entry.number);
  const state = entryState(entries, entry);
  const currency = entry.currency;
  const headingId = `entry-${String(entry.id)}`;
  const total = (side: 'debit_cents' | 'credit_cents') =>
    lines(entry).reduce((sum, l) => sum + BigInt(l[side]), 0n);
  return (
    <article className="card posting" aria-labelledby={headingId}>
      <h3 id={headingId} className="posting-head">
        <Link href={`/records/${entries.path}/${String(entry.id)}`}>{number}</Link>{' '}
        <span className={`badge badge-${state}`}>{state}</span>
      </h3>
      <p className="muted small">
        {formatDate(String(entry.entry_date))}
        {entry.description ? ` · ${String(entry.description)}` : ''}
        {entry.reversed_entry_id ? (
          <>
            {' · reverses '}
            <Link href={`/records/${entries.path}/${String(entry.reversed_entry_id)}`}>
              {reverses ?? 'the original entry'}
            </Link>
          </>
        ) : null}
      </p>
      <TableFrame label={`Lines of ${number}`}>
        <table>
          <caption className="visually-hidden">Lines of {number}</caption>
          <thead>
            <tr>
              <th scope="col">Account and label</th>
              <th scope="col" className="number">
                Debit
              </th>
              <th scope="col" className="number">
                Credit
              </th>
            </tr>
          </thead>
          <tbody>
            {lines(entry).map((line, i) => {
              const account = accounts?.get(line.account_id);
              return (
                <tr key={i}>
                  <td>
                    {account ? accountName(account) : <code>{line.account_id}</code>}
                    {line.label ? <span className="line-label">{line.label}</span> : null}
                  </td>
                  <td className="number">
                    {line.debit_cents ? formatAmount(line.debit_cents, currency) : ''}
                  </td>
                  <td className="number">
                    {line.credit_cents ? formatAmount(line.credit_cents, currency) : ''}
                  </td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total{typeof currency === 'string' ? ` (${currency})` : ''}</th>
              <td className="number">{formatAmount(total('debit_cents'), currency)}</td>
              <td className="number">{formatAmount(total('credit_cents'), currency)}</td>
            </tr>
          </tfoot>
        </table>
      </TableFrame>
    </article>
  );
}
