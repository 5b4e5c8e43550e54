import type { ApiError } from '@erp/sdk';
import { type FormEvent, useEffect, useState } from 'react';
import { client } from '../api/client';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading, Notice } from '../ui/alert';
import { Field } from '../ui/field';
import { formatDate } from '../ui/format';
import { Page } from '../ui/page';
import { ReportsLink } from './report-parts';

interface Download {
  url: string;
  name: string;
  lines: number;
}

/** The file name the portal gives (`Content-Disposition`), else one of ours. */
function fileName(response: Response | undefined, fallback: string): string {
  const disposition = response?.headers.get('content-disposition') ?? '';
  return /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallback;
}

/**
 * Reports → FEC: a fiscal year's *Fichier des Écritures Comptables*. Fetched with the session's
 * token like every call (the console keeps none in web storage, so a plain link could not
 * authenticate), then saved from a Blob link.
 */
export function FecPage() {
  const years = useLoad(
    (signal) =>
      client.get('/api/v1/fiscal-years', {
        query: { order: 'start_date.desc', page_size: 200 },
        signal,
      }),
    [],
  );
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [file, setFile] = useState<Download>();
  // A file replaced, or the page left: its Blob is let go.
  useEffect(() => () => file && URL.revokeObjectURL(file.url), [file]);

  const download = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = String(new FormData(event.currentTarget).get('fiscal_year_id') ?? '');
    const year = years.data?.data.find((y) => y.id === id);
    setBusy(true);
    const answer = await client.get('/api/v1/reports/fec', { query: { fiscal_year_id: id } });
    setBusy(false);
    setError(answer.error);
    if (answer.error) return;
    const text = String(answer.data ?? '');
    const url = URL.createObjectURL(
      new Blob([text], { type: 'text/tab-separated-values;charset=utf-8' }),
    );
    const name = fileName(answer.response, `FEC-${year?.name ?? id}.txt`);
    setFile({ url, name, lines: Math.max(0, text.split('\n').filter(Boolean).length - 1) });
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
  };

  return (
    <Page title="FEC export">
      <ReportsLink />
      <p className="lead">
        The <i lang="fr">Fichier des Écritures Comptables</i> of a fiscal year (article A47 A-1 of
        the <i lang="fr">Livre des procédures fiscales</i>): every posted line of the year,
        tab-separated, in the 18 columns the tax administration reads.
      </p>
      <ErrorBanner error={years.error ?? error} />
      {years.data ? (
        <form className="form card" onSubmit={download}>
          <Field label="Fiscal year" required>
            {(props) => (
              <select {...props} name="fiscal_year_id" required>
                {years.data!.data.map((y) => (
                  <option key={y.id} value={y.id}>
                    {`${y.name} (${formatDate(y.start_date)} – ${formatDate(y.end_date)}, ${y.status})`}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Preparing…' : 'Download FEC'}
          </button>
        </form>
      ) : years.loading ? (
        <Loading what="the fiscal years" />
      ) : null}
      {file ? (
        <Notice>
          {file.name}: {file.lines} lines.{' '}
          <a href={file.url} download={file.name}>
            Save {file.name} again
          </a>
        </Notice>
      ) : null}
    </Page>
  );
}
