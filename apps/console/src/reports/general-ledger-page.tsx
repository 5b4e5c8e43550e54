import { useState } from 'react';
import { Link } from 'wouter';
import { client } from '../api/client';
import { useLoad } from '../api/use-load';
import { accountName, postableAccounts } from '../books/accounts';
import { booksResource } from '../books/books-catalogue';
import { useCatalogue } from '../records/catalogue';
import { ErrorBanner, Loading } from '../ui/alert';
import { Field } from '../ui/field';
import { formatDate, humanize } from '../ui/format';
import { formatCents } from '../ui/money';
import { Page } from '../ui/page';
import { definedQuery, ReportForm, ReportsLink, ReportTable, useReportQuery } from './report-parts';

const PERIOD = [
  { name: 'from', label: 'From' },
  { name: 'to', label: 'To' },
] as const;
const PAGE_SIZE = 50;

/**
 * Reports → General ledger: one account's posted lines over a period with the running balance,
 * each linked to its entry and document; a page at a time (the API's keyset cursor).
 */
export function GeneralLedgerPage() {
  const catalogue = useCatalogue();
  const [params, go] = useReportQuery();
  const accountId = params.get('account_id') ?? '';
  const accounts = useLoad((signal) => postableAccounts(signal), []);
  const settings = useLoad((signal) => client.get('/api/v1/settings/accounting', { signal }), []);
  const currency = settings.data?.company_currency;
  // The cursors followed from the first page, for the asked report only (a new account or
  // period starts again at its first page).
  const asked = params.toString();
  const [paging, setPaging] = useState<{ asked: string; cursors: string[] }>({
    asked,
    cursors: [],
  });
  const cursors = paging.asked === asked ? paging.cursors : [];
  const setCursors = (next: string[]) => setPaging({ asked, cursors: next });
  const cursor = cursors.at(-1);
  const report = useLoad(
    (signal) =>
      accountId
        ? client.get('/api/v1/reports/general-ledger', {
            query: {
              ...definedQuery(params, ['from', 'to']),
              account_id: accountId,
              page_size: PAGE_SIZE,
              ...(cursor ? { cursor } : {}),
            },
            signal,
          })
        : Promise.resolve({ data: undefined }),
    [params.toString(), cursor],
  );
  const gl = report.data;
  const entries = booksResource(catalogue, 'entry');
  const money = (cents: number) => formatCents(cents, currency);
  const documentLink = (document: { type: string; id: string } | null) => {
    const target = document ? catalogue.byName.get(document.type) : undefined;
    if (!document || !target) return '—';
    return (
      <Link href={`/records/${target.path}/${document.id}`}>
        {humanize(target.name)} <span className="muted">…{document.id.slice(-6)}</span>
      </Link>
    );
  };

  return (
    <Page title={gl ? `General ledger ${gl.account.code}` : 'General ledger'}>
      <ReportsLink />
      <ReportForm label="Account and period" dates={PERIOD} values={params} onSubmit={go}>
        <Field label="Account" required>
          {(props) => (
            <select
              {...props}
              name="account_id"
              required
              defaultValue={accountId}
              key={`${accountId}:${accounts.data?.length ?? 0}`}
            >
              <option value="">Choose…</option>
              {accounts.data?.map((a) => (
                <option key={a.id} value={a.id}>
                  {accountName(a)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </ReportForm>
      <ErrorBanner error={accounts.error ?? report.error} />
      {!accountId ? <p>Choose an account to see its lines.</p> : null}
      {gl ? (
        <>
          <p role="status">
            {accountName(gl.account)}, {formatDate(gl.from)} to {formatDate(gl.to)}
            {currency ? `, in ${currency}` : ''}.
          </p>
          <ReportTable caption={`General ledger of ${accountName(gl.account)}`}>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Entry</th>
                <th scope="col">Document</th>
                <th scope="col">Label</th>
                <th scope="col" className="number">
                  Debit
                </th>
                <th scope="col" className="number">
                  Credit
                </th>
                <th scope="col" className="number">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody>
              {!cursor ? (
                <tr>
                  <th scope="row" colSpan={6}>
                    Opening balance on {formatDate(gl.from)}
                  </th>
                  <td className="number">{money(gl.opening_cents)}</td>
                </tr>
              ) : null}
              {gl.data.map((line) => (
                <tr key={`${line.entry_id}:${line.line_no}`}>
                  <td className="nowrap">{formatDate(line.entry_date)}</td>
                  <td className="nowrap">
                    {entries ? (
                      <Link href={`/records/${entries.path}/${line.entry_id}`}>
                        {line.entry_number}
                      </Link>
                    ) : (
                      line.entry_number
                    )}
                  </td>
                  <td className="nowrap">{documentLink(line.document)}</td>
                  <td>{line.label ?? ''}</td>
                  <td className="number">{line.debit_cents ? money(line.debit_cents) : ''}</td>
                  <td className="number">{line.credit_cents ? money(line.credit_cents) : ''}</td>
                  <td className="number">{money(line.balance_cents)}</td>
                </tr>
              ))}
            </tbody>
          </ReportTable>
          {gl.data.length === 0 ? <p>No line over this period.</p> : null}
          <nav className="row pager" aria-label="Pages">
            {cursor ? (
              <button type="button" className="button" onClick={() => setCursors([])}>
                First page
              </button>
            ) : null}
            {gl.next_cursor ? (
              <button
                type="button"
                className="button"
                onClick={() => setCursors([...cursors, gl.next_cursor!])}
              >
                Next page
              </button>
            ) : null}
          </nav>
          <p className="muted small">The balance is debit − credit after each line.</p>
        </>
      ) : report.loading && accountId ? (
        <Loading what="the general ledger" />
      ) : null}
    </Page>
  );
}
