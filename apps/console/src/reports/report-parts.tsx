import type { FormEvent, ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { Field } from '../ui/field';
import { TableFrame } from '../ui/table-frame';

/** The report's parameters in the address (`?from=…&to=…`): bookmarkable, shareable. */
export function useReportQuery(): [URLSearchParams, (next: Record<string, string>) => void] {
  const search = useSearch();
  const [path, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const go = (next: Record<string, string>) => {
    const kept = Object.entries(next).filter(([, value]) => value !== '');
    navigate(`${path}${kept.length ? `?${new URLSearchParams(kept).toString()}` : ''}`);
  };
  return [params, go];
}

/** The report's query as the API takes it: the parameters that are set. */
export function definedQuery(params: URLSearchParams, names: readonly string[]) {
  const query: Record<string, string> = {};
  for (const name of names) {
    const value = params.get(name);
    if (value) query[name] = value;
  }
  return query;
}

export interface DateInput {
  name: string;
  label: string;
}

/** The dates a report is asked for, and any other controls (`children`); submitting shows it. */
export function ReportForm({
  dates,
  values,
  onSubmit,
  children,
  label,
  note,
}: {
  dates: readonly DateInput[];
  values: URLSearchParams;
  onSubmit(values: Record<string, string>): void;
  children?: ReactNode;
  label: string;
  /** What empty fields mean, under the form. */
  note?: string;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onSubmit(Object.fromEntries([...form].map(([k, v]) => [k, String(v)])));
  };
  return (
    <form className="filters report-form" onSubmit={submit} aria-label={label}>
      {children}
      {dates.map((d) => (
        <Field key={d.name} label={d.label}>
          {(props) => (
            <input
              {...props}
              type="date"
              name={d.name}
              defaultValue={values.get(d.name) ?? ''}
              key={values.get(d.name) ?? ''}
            />
          )}
        </Field>
      ))}
      <button type="submit" className="button button-primary">
        Show
      </button>
      {note ? <p className="hint report-note">{note}</p> : null}
    </form>
  );
}

/**
 * A report's table. On a phone each row becomes a card (its heading cell across, each amount
 * under its column's name, from the cells' `data-label`); wider, the table scrolls sideways
 * inside its frame if it must (never the page), and the frame takes the keyboard focus so
 * arrow keys scroll it.
 */
export function ReportTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <TableFrame label={caption}>
      <table className="report cards">
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </TableFrame>
  );
}

/** Back to the list of reports. */
export function ReportsLink() {
  return (
    <p>
      <Link href="/reports">← Reports</Link>
    </p>
  );
}
