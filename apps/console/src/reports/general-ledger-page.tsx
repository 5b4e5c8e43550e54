import type { components } from '@erp/sdk';
import { useState } from 'react';
import { Link } from 'wouter';
import { client } from '../api/client';
import { useLoad } from '../api/use-load';
import { accountName, postableAccounts } from '../books/accounts';
import { booksResource } from '../books/books-catalogue';
import { useCatalogue } from '../records/catalogue';
import { useReferenceLabels } from '../records/reference-labels';
import { ErrorBanner, Loading } from '../ui/alert';
import { Field } from '../ui/field';
import { formatDate, humanize } from '../ui/format';
import { formatAmount } from '../ui/money';
import { Page } from '../ui/page';
import { definedQuery, ReportForm, ReportsLink, ReportTable, useReportQuery } from './report-parts';

const PERIOD = [
  { name: 'from', label: 'From' },
  { name: 'to', label: 'To' },
] as const;
const PAGE_SIZE = 50;

/** A page of the general ledger, with the cursor it answers (none: the first). */
type GeneralLedgerPage = components['schemas']['GeneralLedger'] & { cursor: string | undefined };

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
  const report = useLoad<GeneralLedgerPage | undefined>(
    (signal) =>
      accountId
        ? client
            .get('/api/v1/reports/general-ledger', {
              query: {
                ...definedQuery(params, ['from', 'to']),
                account_id: accountId,
                page_size: Number(params.get('page_size')) || PAGE_SIZE,
                ...(cursor ? { cursor } : {}),
              },
              signal,
            })
            // The page says which cursor it answers: while the next one loads, the page on
            // screen stays whole (its opening row, its buttons).
            .then((answer) => (answer.error ? answer : { data: { ...answer.data, cursor } }))
        : Promise.resolve({ data: undefined }),
    [params.toString(), cursor],
  );
  const gl = report.data;
  const entries = booksResource(catalogue, 'entry');
  const money = (cents: number) => formatAmount(cents, currency);
  // The documents' numbers, one list request per document type on the page.
  const documents = gl?.data.flatMap((line) => (line.document ? [line.document] : [])) ?? [];
  const label = useReferenceLabels(
    catalogue,
    [...new Set(documents.map((d) => d.type))].map((type) => ({
      target: type,
      ids: documents.filter((d) => d.type === type).map((d) => d.id),
    })),
  );
  const documentLink = (document: { type: string; id: string } | null) => {
    const target = document ? catalogue.byName.get(document.type) : undefined;
    if (!document || !target) return '—';
    return (
      <Link href={`/records/${target.path}/${document.id}`}>
        {humanize(target.name)}{' '}
        {(target.label !== 'id' && label(target.name, document.id)) || `…${document.id.slice(-6)}`}
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
              {!gl.cursor ? (
                <tr>
                  <th scope="row" colSpan={6}>
                    Opening balance on {formatDate(gl.from)}
                  </th>
                  <td className="number" data-label="Balance">
                    {money(gl.opening_cents)}
                  </td>
                </tr>
              ) : null}
              {gl.data.map((line) => (
                <tr key={`${line.entry_id}:${line.line_no}`}>
                  <td className="nowrap" data-label="Date">
                    {formatDate(line.entry_date)}
                  </td>
                  <td className="nowrap" data-label="Entry">
                    {entries ? (
                      <Link href={`/records/${entries.path}/${line.entry_id}`}>
                        {line.entry_number}
                      </Link>
                    ) : (
                      line.entry_number
                    )}
                  </td>
                  <td className="nowrap" data-label="Document">
                    {documentLink(line.document)}
                  </td>
                  <td data-label="Label">{line.label ?? ''}</td>
                  <td className="number" data-label="Debit">
                    {line.debit_cents ? money(line.debit_cents) : ''}
                  </td>
                  <td className="number" data-label="Credit">
                    {line.credit_cents ? money(line.credit_cents) : ''}
                  </td>
                  <td className="number" data-label="Balance">
                    {money(line.balance_cents)}
                  </td>
                </tr>
              ))}
            </tbody>
          </ReportTable>
          {gl.data.length === 0 ? <p>No line over this period.</p> : null}
          <nav className="row pager" aria-label="Pages">
            {gl.cursor ? (
              <button type="button" className="button" onClick={() => setCursors([])}>
                First page
              </button>
            ) : null}
            {gl.next_cursor ? (
              <button
                type="button"
                className="button"
                onClick={() => {
                  if (!report.loading) setCursors([...cursors, gl.next_cursor!]);
                }}
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
