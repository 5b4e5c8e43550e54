import { Link } from 'wouter';
import { client } from '../api/client';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading } from '../ui/alert';
import { formatDate } from '../ui/format';
import { formatAmount } from '../ui/money';
import { Page } from '../ui/page';
import { definedQuery, ReportForm, ReportsLink, ReportTable, useReportQuery } from './report-parts';

const PERIOD = [
  { name: 'from', label: 'From' },
  { name: 'to', label: 'To' },
] as const;

/** Reports → Trial balance: every account's opening, movements and closing over a period. */
export function TrialBalancePage() {
  const [params, go] = useReportQuery();
  const query = definedQuery(params, ['from', 'to']);
  const report = useLoad(
    (signal) => client.get('/api/v1/reports/trial-balance', { query, signal }),
    [params.toString()],
  );
  const tb = report.data;
  const money = (cents: number) => formatAmount(cents, tb?.currency);
  const balanced = tb && tb.totals.debit_cents === tb.totals.credit_cents;

  return (
    <Page title="Trial balance">
      <ReportsLink />
      <ReportForm
        label="Period"
        dates={PERIOD}
        values={params}
        onSubmit={go}
        note="Empty dates: from 1 January of the last day’s year to today."
      />
      <ErrorBanner error={report.error} />
      {tb ? (
        <>
          <p role="status">
            {formatDate(tb.from)} to {formatDate(tb.to)}, in {tb.currency}:{' '}
            <strong>
              {balanced
                ? `balanced, debits equal credits (${money(tb.totals.debit_cents)})`
                : `debits ${money(tb.totals.debit_cents)} and credits ${money(tb.totals.credit_cents)} differ`}
            </strong>
            .
          </p>
          {tb.accounts.length === 0 ? (
            <p>Nothing posted over this period.</p>
          ) : (
            <ReportTable caption={`Trial balance, ${tb.from} to ${tb.to}, in ${tb.currency}`}>
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  <th scope="col" className="number">
                    Opening
                  </th>
                  <th scope="col" className="number">
                    Debit
                  </th>
                  <th scope="col" className="number">
                    Credit
                  </th>
                  <th scope="col" className="number">
                    Closing
                  </th>
                </tr>
              </thead>
              <tbody>
                {tb.accounts.map((a) => (
                  <tr key={a.account_id}>
                    <th scope="row">
                      <Link
                        href={`/reports/general-ledger?${new URLSearchParams({ account_id: a.account_id, from: tb.from, to: tb.to })}`}
                        aria-label={`General ledger of ${a.code} ${a.name}`}
                      >
                        <span className="account-code">{a.code}</span> {a.name}
                      </Link>
                    </th>
                    <td className="number" data-label="Opening">
                      {money(a.opening_cents)}
                    </td>
                    <td className="number" data-label="Debit">
                      {money(a.debit_cents)}
                    </td>
                    <td className="number" data-label="Credit">
                      {money(a.credit_cents)}
                    </td>
                    <td className="number" data-label="Closing">
                      {money(a.closing_cents)}
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  <td className="number" data-label="Opening">
                    {money(tb.totals.opening_cents)}
                  </td>
                  <td className="number" data-label="Debit">
                    {money(tb.totals.debit_cents)}
                  </td>
                  <td className="number" data-label="Credit">
                    {money(tb.totals.credit_cents)}
                  </td>
                  <td className="number" data-label="Closing">
                    {money(tb.totals.closing_cents)}
                  </td>
                </tr>
              </tfoot>
            </ReportTable>
          )}
          <p className="muted small">Balances are debit − credit: a credit balance is negative.</p>
        </>
      ) : report.loading ? (
        <Loading what="the trial balance" />
      ) : null}
    </Page>
  );
}
