import { ApiError } from '@erp/sdk';
import { type FormEvent, useRef, useState } from 'react';
import { raw } from '../api/client';
import { fieldErrors } from '../api/errors';
import { useLoad } from '../api/use-load';
import { type Catalogue, recordLabel, resourceNoun } from '../records/catalogue';
import type { ResourceInfo } from '../records/catalogue-types';
import { ErrorBanner } from '../ui/alert';
import { Field } from '../ui/field';
import { humanize } from '../ui/format';
import { centsToDecimal, formatCents, parseAmount } from '../ui/money';
import { type SettlingSource, settlingSources, sourcesNoun } from './settling';

type Row = Record<string, unknown>;

/** Today in the browser's calendar, as a date input holds it. */
function today(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

/** Cents as the API takes them; what cannot be read goes as typed, for the API to name. */
function centsOrText(text: string, currency: unknown): number | string | undefined {
  if (!text.trim()) return undefined;
  const cents = parseAmount(text, currency);
  return cents !== undefined && cents <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(cents) : text;
}

/** A record that may settle the document, with its source. */
interface Offer {
  source: SettlingSource;
  row: Row;
}

/**
 * Settles the document with what may settle it (SPEC §17; see `settlingSources`): a posted
 * payment going the right way, or an open note or invoice of the other side, of the same party
 * and currency (`POST /payment-allocations {payment_id | credit_note_id…, invoice_id…,
 * amount_cents, write_off_cents?}`). The amount starts at what both allow. The API's refusal
 * (`montant_depasse`…) is shown as it says it.
 */
export function AllocateForm({
  catalogue,
  resource,
  allocations,
  field,
  record,
  onAllocated,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  allocations: ResourceInfo;
  field: string;
  record: Row;
  onAllocated(notice: string): void;
}) {
  const sources = settlingSources(catalogue, resource, allocations, record);
  const party = resource.books?.party;
  const currency = record.currency;
  const due = typeof record.amount_due_cents === 'number' ? record.amount_due_cents : 0;
  const offered = useLoad<Offer[]>(
    async (signal) => {
      const lists = await Promise.all(
        sources.map((source) =>
          raw.get(`/api/v1/${source.resource.path}`, {
            query: { ...source.query, page_size: 100 },
            signal,
          }),
        ),
      );
      // A list the member may not read (credit notes for an accountant) offers nothing.
      const data: Offer[] = lists.flatMap((list, i) =>
        ((list.data as { data?: Row[] } | undefined)?.data ?? []).map((row) => ({
          source: sources[i]!,
          row,
        })),
      );
      return { data };
    },
    [sources.map((s) => JSON.stringify(s.query)).join(), String(record.updated_at)],
  );
  const options = offered.data ?? [];
  const [chosenId, setChosenId] = useState('');
  const [amount, setAmount] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const errors = fieldErrors(error);
  const amountInput = useRef<HTMLInputElement>(null);
  // An amount over what is left (`montant_depasse`) is the amount's fault: it is marked, and the
  // focus goes there to correct it. What is left is said in the document's currency.
  const left = error?.code === 'montant_depasse' ? error.params.available_cents : undefined;
  const shown =
    error && typeof left === 'number' && Number.isSafeInteger(left)
      ? new ApiError(
          error.code,
          `More than what is left: ${formatCents(left, currency)}.`,
          error.params,
          error.status,
        )
      : error;
  const amountError =
    errors.amount_cents ?? (shown?.code === 'montant_depasse' ? shown.message : undefined);
  const chosen = options.find((o) => o.row.id === (chosenId || options[0]?.row.id));
  const suggested = chosen
    ? centsToDecimal(Math.min(due, Number(chosen.row[chosen.source.left])), currency)
    : '';
  const noun = sourcesNoun(sources);
  const chosenNoun = chosen ? resourceNoun(chosen.source.resource) : noun;
  // A write-off settles the rest of a document with a payment, not with another document.
  const paid = chosen?.source.resource.books?.role === 'payment';

  if (!sources.length || due <= 0) return null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const offer = options.find((o) => o.row.id === String(form.get('source') ?? ''));
    const writeOff = centsOrText(String(form.get('write_off') ?? ''), currency);
    const amountCents = centsOrText(String(form.get('amount') ?? ''), currency);
    if (!offer) return;
    const answer = await raw.post(`/api/v1/${allocations.path}`, {
      body: {
        [offer.source.field]: String(offer.row.id),
        [field]: String(record.id),
        amount_cents: amountCents,
        ...(writeOff === undefined ? {} : { write_off_cents: writeOff }),
        allocation_date: String(form.get('date') ?? ''),
        currency,
      },
    });
    setError(answer.error);
    if (answer.error) {
      if (answer.error.code === 'montant_depasse') amountInput.current?.focus();
      return;
    }
    setAmount(undefined);
    setChosenId('');
    onAllocated(
      `Allocated ${formatCents(Number(amountCents), currency)} of ${recordLabel(offer.source.resource, offer.row)} to this ${resourceNoun(resource)}.`,
    );
  };

  return (
    <form className="form card allocate" onSubmit={submit} aria-labelledby="allocate-title">
      <h3 id="allocate-title">Allocate {withArticle(noun)}</h3>
      {options.length === 0 && !offered.loading ? (
        <p>
          No {noun} of this {party ? party.replace(/_id$/, '') : 'party'} in {String(currency)} has
          anything left to settle it with.
        </p>
      ) : (
        <>
          {shown && Object.keys(errors).length === 0 ? <ErrorBanner error={shown} /> : null}
          <Field
            label={humanize(noun)}
            required
            error={sources.map((s) => errors[s.field]).find(Boolean)}
          >
            {(props) => (
              <select
                {...props}
                name="source"
                required
                value={chosenId || String(options[0]?.row.id ?? '')}
                onChange={(e) => {
                  setChosenId(e.target.value);
                  setAmount(undefined);
                }}
              >
                {sources.map((source) => {
                  const own = optionsOf(options, source, currency);
                  // Grouped by kind when there is more than one kind to choose from.
                  if (sources.length === 1 || !own.length) return own;
                  return (
                    <optgroup key={source.field} label={humanize(source.resource.path)}>
                      {own}
                    </optgroup>
                  );
                })}
              </select>
            )}
          </Field>
          <Field
            label="Amount"
            required
            error={amountError}
            hint={`In ${String(currency)}; at most what the ${chosenNoun} has left and what is due (${formatCents(due, currency)}).`}
          >
            {(props) => (
              <input
                {...props}
                ref={amountInput}
                name="amount"
                inputMode="decimal"
                required
                value={amount ?? suggested}
                onChange={(e) => setAmount(e.target.value)}
              />
            )}
          </Field>
          {paid ? (
            <Field
              label="Write-off"
              error={errors.write_off_cents}
              hint="A small difference (bank fees, rounding) settled and posted to the write-off account."
            >
              {(props) => <input {...props} name="write_off" inputMode="decimal" />}
            </Field>
          ) : null}
          <Field label="Date" required error={errors.allocation_date}>
            {(props) => (
              <input {...props} name="date" type="date" required defaultValue={today()} />
            )}
          </Field>
          <button type="submit" className="button button-primary">
            Allocate
          </button>
        </>
      )}
    </form>
  );
}

/** `payment or credit note` → `a payment or credit note`. */
function withArticle(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** The options of one source: each record, and what it has left. */
function optionsOf(options: readonly Offer[], source: SettlingSource, currency: unknown) {
  return options
    .filter((o) => o.source.field === source.field)
    .map(({ row }) => (
      <option key={String(row.id)} value={String(row.id)}>
        {`${recordLabel(source.resource, row)} · ${formatCents(Number(row[source.left]), currency)} left`}
      </option>
    ));
}
