import { Link } from 'wouter';
import { Page } from '../ui/page';

const REPORTS = [
  [
    '/reports/trial-balance',
    'Trial balance',
    'Every account’s opening, movements and closing over a period.',
  ],
  [
    '/reports/general-ledger',
    'General ledger',
    'One account’s posted lines with the running balance.',
  ],
  ['/reports/aged-receivables', 'Aged receivables', 'What each customer owes, by how late.'],
  ['/reports/aged-payables', 'Aged payables', 'What each supplier is owed, by how late.'],
  ['/reports/fec', 'FEC export', 'The Fichier des Écritures Comptables of a fiscal year.'],
] as const;

/** Reports: the books' reports, computed from the ledger (SPEC §17). */
export function ReportsPage() {
  return (
    <Page title="Reports">
      <p className="lead">Computed from the ledger, the lines of every posted journal entry.</p>
      <ul className="report-links">
        {REPORTS.map(([href, title, description]) => (
          <li key={href} className="card">
            <Link href={href} className="report-link">
              {title}
            </Link>
            <p className="muted small">{description}</p>
          </li>
        ))}
      </ul>
    </Page>
  );
}
