import { ApiError } from '@erp/sdk';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { raw } from '../api/client';
import { useLoad } from '../api/use-load';
import { type Catalogue, recordLabel, resourceNoun } from '../records/catalogue';
import type { ConversionInfo, ResourceInfo } from '../records/catalogue-types';
import { rememberLabel } from '../records/reference-labels';
import { ErrorBanner } from '../ui/alert';
import { DialogButton } from '../ui/dialog';
import { conversionLabel, conversionRequest, type OpenLine, openLines } from './flow';

type Row = Record<string, unknown>;

// The portal's answer to more than remains (SPEC §18). A string compared as such: the sdk's
// generated error union does not list it yet.
const QUANTITY_EXCEEDED = 'quantite_depassee' as ApiError['code'];

/**
 * A conversion's button (SPEC §18: `Make delivery`…) opening the quantities dialog: each line
 * with what remains, prefilled with it, editable. Taking everything sends no body; otherwise the
 * lines asked. The new draft's page opens; the portal's refusal (`quantite_depassee`, with the
 * line's figures) stays in the dialog, on the line.
 */
export function ConvertButton({
  catalogue,
  resource,
  record,
  conversion,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  record: Row;
  conversion: ConversionInfo;
}) {
  const target = catalogue.byName.get(conversion.target);
  if (!target) return null;
  return (
    <DialogButton
      label={conversionLabel(conversion)}
      title={`${conversionLabel(conversion)} from ${recordLabel(resource, record)}`}
      className="button button-primary"
      dialogClassName="dialog-wide"
    >
      {(close) => (
        <QuantitiesForm
          catalogue={catalogue}
          resource={resource}
          target={target}
          record={record}
          conversion={conversion}
          close={close}
        />
      )}
    </DialogButton>
  );
}

/** The lines a goods conversion may take: those of products that are not services. */
function useEligibleLines(
  catalogue: Catalogue,
  resource: ResourceInfo,
  record: Row,
  conversion: ConversionInfo,
): OpenLine[] | undefined {
  const all = openLines(record, conversion);
  const ref = resource.fields
    .find((f) => f.name === 'lines')
    ?.fields?.find((f) => f.name === 'product_id')?.ref;
  const products = ref ? catalogue.byName.get(ref) : undefined;
  const ids = [
    ...new Set(all.map((l) => l.line.product_id).filter((id) => typeof id === 'string')),
  ];
  const loaded = useLoad(
    (signal) =>
      conversion.goods && products && ids.length
        ? raw.get(`/api/v1/${products.path}`, {
            query: { id: `in.(${ids.join(',')})`, page_size: 200 },
            signal,
          })
        : Promise.resolve({ data: { data: [] } }),
    [conversion.name, ids.join()],
  );
  if (!conversion.goods) return all;
  const rows = (loaded.data as { data?: Row[] } | undefined)?.data;
  if (!rows) return undefined;
  // The portal's rule: a line of goods names a product that is not a service.
  const goods = new Set(rows.filter((p) => p.product_type !== 'service').map((p) => String(p.id)));
  return all.filter((l) => goods.has(String(l.line.product_id)));
}

function QuantitiesForm({
  catalogue,
  resource,
  target,
  record,
  conversion,
  close,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  target: ResourceInfo;
  record: Row;
  conversion: ConversionInfo;
  close(): void;
}) {
  const [, navigate] = useLocation();
  const loaded = useEligibleLines(catalogue, resource, record, conversion);
  // What the portal said remains of a line since the page was read (someone took some).
  const [fresh, setFresh] = useState<Record<string, string>>({});
  const lines = loaded?.map((l) => (fresh[l.id] ? { ...l, remaining: fresh[l.id]! } : l));
  const [asked, setAsked] = useState<Record<string, string>>({});
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const noun = resourceNoun(target);

  const focusLine = (id: string) =>
    form.current?.querySelector<HTMLInputElement>(`input[data-line="${CSS.escape(id)}"]`)?.focus();
  // The dialog opened while the lines were loading (the focus then went to Cancel): once they
  // are there, the first quantity takes the focus.
  const firstLine = lines?.[0]?.id;
  useEffect(() => {
    if (firstLine) focusLine(firstLine);
  }, [firstLine]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!lines || busy) return;
    const request = conversionRequest(lines, asked);
    setError(undefined);
    if ('invalid' in request) {
      setInvalid(request.invalid);
      focusLine(Object.keys(request.invalid)[0]!);
      return;
    }
    if ('nothing' in request) {
      setInvalid({});
      setError(nothingError(noun));
      return;
    }
    setInvalid({});
    setBusy(true);
    const answer = await raw.post(
      `/api/v1/${resource.path}/${String(record.id)}/${conversion.route}`,
      {
        ...(request.body ? { body: request.body } : {}),
      },
    );
    setBusy(false);
    if (answer.error) {
      const { code, params } = answer.error;
      const line = lines.find((l) => l.id === params.line_id);
      if (code !== QUANTITY_EXCEEDED || !line) return setError(answer.error);
      // Someone took some meanwhile: the figures the portal gives, on the line they concern.
      const figures = `${String(params.remaining)} left, ${String(params.requested)} asked`;
      setError(
        new ApiError(
          code,
          `More than remains of line "${String(line.line.description ?? '')}": ${figures}.`,
          params,
          answer.error.status,
        ),
      );
      setInvalid({ [line.id]: `More than remains: ${figures}.` });
      if (typeof params.remaining === 'string') setFresh({ ...fresh, [line.id]: params.remaining });
      focusLine(line.id);
      return;
    }
    const made = answer.data as Row;
    rememberLabel(target.name, String(made.id), recordLabel(target, made));
    close();
    navigate(`/records/${target.path}/${String(made.id)}`);
  };

  return (
    <form ref={form} onSubmit={submit} noValidate>
      <p>
        A draft {noun} of what remains of each line; lower a quantity to take a part, 0 to leave a
        line out.
      </p>
      <ErrorBanner error={error} />
      {!lines ? (
        <p className="muted" role="status">
          Loading the lines…
        </p>
      ) : lines.length === 0 ? (
        <p>
          No line of this {resourceNoun(resource)} can go on a {noun}.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="stacked stacked-inline">
            <caption className="visually-hidden">Quantities to take</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col" className="number">
                  Quantity
                </th>
                <th scope="col" className="number">
                  Remaining
                </th>
                <th scope="col">Take</th>
              </tr>
            </thead>
            <tbody>
              {lines.map(({ id, line, remaining }, i) => {
                const name = `${i + 1}. ${String(line.description ?? '')}`;
                const problem = invalid[id];
                const inputId = `take-${id}`;
                return (
                  <tr key={id}>
                    <th scope="row" data-label="Line">
                      {name}
                    </th>
                    <td className="number" data-label="Quantity">
                      {String(line.quantity)}
                    </td>
                    <td className="number" data-label="Remaining">
                      {remaining}
                    </td>
                    <td data-label="Take">
                      <label htmlFor={inputId} className="visually-hidden">
                        {`Quantity to take of line ${name}`}
                      </label>
                      <input
                        id={inputId}
                        data-line={id}
                        inputMode="decimal"
                        className="quantity-input"
                        value={asked[id] ?? remaining}
                        aria-invalid={problem ? true : undefined}
                        aria-describedby={problem ? `${inputId}-error` : undefined}
                        onChange={(e) => setAsked({ ...asked, [id]: e.target.value })}
                      />
                      {problem ? (
                        <p className="field-error" id={`${inputId}-error`}>
                          {problem}
                        </p>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <div className="row">
        <button type="submit" className="button button-primary" disabled={!lines?.length || busy}>
          {`Make the ${noun}`}
        </button>
        <button type="button" className="button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Nothing asked on any line: the portal's own answer, said before asking it. */
function nothingError(noun: string): ApiError {
  return new ApiError(
    QUANTITY_EXCEEDED,
    `Nothing to take: give at least one line a quantity for the ${noun}.`,
  );
}
