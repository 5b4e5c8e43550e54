import { ApiError } from '@erp/sdk';
import { type FormEvent, useRef, useState } from 'react';
import { raw } from '../api/client';
import { fieldErrors } from '../api/errors';
import { useLoad } from '../api/use-load';
import { type Catalogue, recordLabel, resourceNoun } from '../records/catalogue';
import type { ResourceInfo } from '../records/catalogue-types';
import { ErrorBanner } from '../ui/alert';
import { Field } from '../ui/field';
import { centsToDecimal, formatCents, parseAmount } from '../ui/money';
import { booksResource, postedState, referenceTo } from './books-catalogue';

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

/**
 * Allocates a posted payment of the document's party to it
 * (`POST /payment-allocations {payment_id, invoice_id, amount_cents, write_off_cents?}`): the
 * payments offered are the posted ones of that party and currency with money left; the amount
 * starts at what both allow. The API's refusal (`montant_depasse`…) is shown as it says it.
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
  const payments = booksResource(catalogue, 'payment');
  const paymentField = payments ? referenceTo(allocations, payments) : undefined;
  const party = resource.books?.party;
  const currency = record.currency;
  const due = typeof record.amount_due_cents === 'number' ? record.amount_due_cents : 0;
  const offered = useLoad(
    (signal) => {
      const query: Record<string, string | number> = { page_size: 100 };
      if (party && payments?.fields.some((f) => f.name === party))
        query[party] = `eq.${String(record[party])}`;
      const posted = payments && postedState(payments);
      if (posted) query.status = `eq.${posted}`;
      query.unallocated_cents = 'gt.0';
      if (typeof currency === 'string') query.currency = `eq.${currency}`;
      return payments
        ? raw.get(`/api/v1/${payments.path}`, { query, signal })
        : Promise.resolve({ data: { data: [] } });
    },
    [payments?.path, String(record.updated_at)],
  );
  const options = (offered.data as { data?: Row[] } | undefined)?.data ?? [];
  const [paymentId, setPaymentId] = useState('');
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
  const chosen = options.find((p) => p.id === (paymentId || options[0]?.id));
  const suggested = chosen
    ? centsToDecimal(Math.min(due, Number(chosen.unallocated_cents)), currency)
    : '';

  if (!payments || !paymentField || due <= 0) return null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const payment = String(form.get('payment') ?? '');
    const writeOff = centsOrText(String(form.get('write_off') ?? ''), currency);
    const amountCents = centsOrText(String(form.get('amount') ?? ''), currency);
    const answer = await raw.post(`/api/v1/${allocations.path}`, {
      body: {
        [paymentField.name]: payment,
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
    const label = options.find((p) => p.id === payment);
    setAmount(undefined);
    setPaymentId('');
    onAllocated(
      `Allocated ${formatCents(Number(amountCents), currency)} of ${label ? recordLabel(payments, label) : 'the payment'} to this ${resourceNoun(resource)}.`,
    );
  };

  return (
    <form className="form card allocate" onSubmit={submit} aria-labelledby="allocate-title">
      <h3 id="allocate-title">Allocate a payment</h3>
      {options.length === 0 && !offered.loading ? (
        <p>
          No posted payment of this {party ? party.replace(/_id$/, '') : 'party'} in{' '}
          {String(currency)} has money left to allocate.
        </p>
      ) : (
        <>
          {shown && Object.keys(errors).length === 0 ? <ErrorBanner error={shown} /> : null}
          <Field label="Payment" required error={errors[paymentField.name]}>
            {(props) => (
              <select
                {...props}
                name="payment"
                required
                value={paymentId || String(options[0]?.id ?? '')}
                onChange={(e) => {
                  setPaymentId(e.target.value);
                  setAmount(undefined);
                }}
              >
                {options.map((p) => (
                  <option key={String(p.id)} value={String(p.id)}>
                    {`${recordLabel(payments, p)} · ${formatCents(Number(p.unallocated_cents), currency)} left`}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Amount"
            required
            error={amountError}
            hint={`In ${String(currency)}; at most what the payment has left and what is due (${formatCents(due, currency)}).`}
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
          <Field
            label="Write-off"
            error={errors.write_off_cents}
            hint="A small difference (bank fees, rounding) settled and posted to the write-off account."
          >
            {(props) => <input {...props} name="write_off" inputMode="decimal" />}
          </Field>
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
