import type { ApiError } from '@erp/sdk';
import { type FormEvent, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { requestFile } from '../api/files';
import { Field } from '../ui/field';
import { draftPage, importContentType } from './einvoice';
import { EInvoiceRefusal } from './refusal';

/**
 * On the supplier invoices' list (SPEC §20): a supplier's e-invoice (UBL or CII XML, a
 * Factur-X PDF) sent as it is; the portal checks it by the EN 16931 rules and makes a draft
 * supplier invoice (a debit note for a credit note), whose page opens. A refusal lists the
 * failed rules, or names the unknown seller with a link to create it.
 */
export function ImportEInvoiceForm() {
  const [, navigate] = useLocation();
  const [error, setError] = useState<ApiError>();
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState<string>();
  const input = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const file = input.current?.files?.[0];
    setMissing(!file);
    setError(undefined);
    if (!file) {
      input.current?.focus();
      return;
    }
    setBusy(file.name);
    const answer = await requestFile('POST', '/api/v1/supplier-invoices/import', {
      body: file,
      contentType: importContentType(file),
      accept: 'application/json',
    });
    if (answer.error) {
      setBusy(undefined);
      setError(answer.error);
      return;
    }
    const body: unknown = await answer.response.json().catch(() => undefined);
    setBusy(undefined);
    const page = draftPage(answer.response.headers.get('location'), body);
    if (page) navigate(page);
  };

  return (
    <section aria-labelledby="einvoice-import" className="card einvoice-import">
      <h2 id="einvoice-import">Import an e-invoice</h2>
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label="E-invoice file"
          hint="UBL or CII (.xml), or Factur-X (.pdf). Checked by the EN 16931 rules, then a draft supplier invoice (a debit note for a credit note) from the supplier with the seller’s VAT number."
          error={missing ? 'Choose the file to import.' : undefined}
        >
          {(props) => (
            <input
              {...props}
              ref={input}
              type="file"
              name="file"
              accept=".xml,.pdf,application/xml,text/xml,application/pdf"
              onChange={() => setMissing(false)}
            />
          )}
        </Field>
        <div className="row">
          <button
            type="submit"
            className="button button-primary"
            aria-disabled={busy ? true : undefined}
          >
            Import
          </button>
          <span className="muted small" role="status">
            {busy ? `Importing ${busy}…` : ''}
          </span>
        </div>
        <EInvoiceRefusal error={error} />
      </form>
    </section>
  );
}
