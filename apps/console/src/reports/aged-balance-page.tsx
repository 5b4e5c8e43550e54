import { client } from '../api/client';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading } from '../ui/alert';
import { formatDate } from '../ui/format';
import { formatAmount } from '../ui/money';
import { Page } from '../ui/page';
import { definedQuery, ReportForm, ReportsLink, ReportTable, useReportQuery } from './report-parts';

const AT = [{ name: 'at', label: 'At' }] as const;
const BUCKETS = [
  ['not_due_cents', 'Not yet due'],
  ['d1_30_cents', '1–30 days'],
  ['d31_60_cents', '31–60 days'],
  ['d61_90_cents', '61–90 days'],
  ['over_90_cents', 'Over 90 days'],
  ['total_cents', 'Total'],
] as const;

const SIDES = {
  receivables: {
    title: 'Aged receivables',
    party: 'Customer',
    path: '/api/v1/reports/aged-receivables',
  },
  payables: { title: 'Aged payables', party: 'Supplier', path: '/api/v1/reports/aged-payables' },
} as const;

/** Reports → Aged receivables: what each customer owes, by how late. */
export function AgedReceivablesPage() {
  return <AgedBalance side="receivables" />;
}

/** Reports → Aged payables: what each supplier is owed, by how late. */
export function AgedPayablesPage() {
  return <AgedBalance side="payables" />;
}

function AgedBalance({ side }: { side: keyof typeof SIDES }) {
  const { title, party, path } = SIDES[side];
  const [params, go] = useReportQuery();
  const report = useLoad(
    (signal) => client.get(path, { query: definedQuery(params, ['at']), signal }),
    [path, params.toString()],
  );
  const aged = report.data;
  const money = (cents: number) => formatAmount(cents, aged?.currency);
  return (
    <Page title={title}>
      <ReportsLink />
      <ReportForm label="Date" dates={AT} values={params} onSubmit={go} note="Empty: today." />
      <ErrorBanner error={report.error} />
      {aged ? (
        <>
          <p role="status">
            At {formatDate(aged.at)}, in {aged.currency}: {money(aged.totals.total_cents)} in all,
            by due date (payments and notes not yet allocated count against, at their own date).
          </p>
          {aged.parties.length === 0 ? (
            <p>Nothing outstanding.</p>
          ) : (
            <ReportTable caption={`${title} at ${aged.at}, in ${aged.currency}`}>
              <thead>
                <tr>
                  <th scope="col">{party}</th>
                  {BUCKETS.map(([key, label]) => (
                    <th key={key} scope="col" className="number">
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {aged.parties.map((p) => (
                  <tr key={p.party_id}>
                    <th scope="row">{p.name}</th>
                    {BUCKETS.map(([key, label]) => (
                      <td key={key} className="number" data-label={label}>
                        {p[key] ? money(p[key]) : '—'}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  {BUCKETS.map(([key, label]) => (
                    <td key={key} className="number" data-label={label}>
                      {money(aged.totals[key])}
                    </td>
                  ))}
                </tr>
              </tfoot>
            </ReportTable>
          )}
        </>
      ) : report.loading ? (
        <Loading what={title.toLowerCase()} />
      ) : null}
    </Page>
  );
}
