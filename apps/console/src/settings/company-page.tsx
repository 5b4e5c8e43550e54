import type { ApiError, components } from '@erp/sdk';
import { type FormEvent, Fragment, useEffect, useRef, useState } from 'react';
import { isAdmin, useMe } from '../api/auth';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { useLoad } from '../api/use-load';
import { centsToEuros, eurosToCents } from '../einvoicing/einvoice';
import { ErrorBanner, Loading, Notice } from '../ui/alert';
import { Field } from '../ui/field';
import { formatAmount } from '../ui/money';
import { Page } from '../ui/page';

type Company = components['schemas']['CompanySettings'];
type Name = keyof Company;

interface CompanyField {
  name: Name;
  label: string;
  hint?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'decimal' | 'email' | 'tel';
  type?: 'email' | 'tel';
  /** Typed without spaces, in capitals, as the portal checks it. */
  compact?: boolean;
  upper?: boolean;
}

const GROUPS: { legend: string; fields: CompanyField[] }[] = [
  {
    legend: 'The company',
    fields: [
      {
        name: 'legal_name',
        label: 'Legal name',
        hint: 'The registered name: the seller on every invoice.',
        autoComplete: 'organization',
      },
      { name: 'trade_name', label: 'Trade name', hint: 'The name it trades under, if another.' },
      { name: 'legal_form', label: 'Legal form', hint: 'SARL, SAS, SA, EURL, EI…' },
      {
        name: 'share_capital_cents',
        label: 'Share capital (euros)',
        hint: 'In euros, to the cent: 50000 or 50 000.00.',
        inputMode: 'decimal',
      },
      { name: 'registry', label: 'Registry', hint: 'Where it is registered: RCS Lyon, RM…' },
    ],
  },
  {
    legend: 'Identifiers',
    fields: [
      { name: 'siren', label: 'SIREN', hint: 'Nine digits.', inputMode: 'numeric', compact: true },
      {
        name: 'siret',
        label: 'SIRET',
        hint: 'Fourteen digits: the SIREN and the establishment’s five.',
        inputMode: 'numeric',
        compact: true,
      },
      {
        name: 'vat_number',
        label: 'VAT number',
        hint: 'Intra-community, e.g. FR19812345676 (a French one is its SIREN’s).',
        compact: true,
        upper: true,
      },
    ],
  },
  {
    legend: 'Address',
    fields: [
      { name: 'street', label: 'Street', autoComplete: 'address-line1' },
      { name: 'street2', label: 'Street, second line', autoComplete: 'address-line2' },
      { name: 'postal_code', label: 'Postal code', autoComplete: 'postal-code' },
      { name: 'city', label: 'City', autoComplete: 'address-level2' },
      {
        name: 'country_code',
        label: 'Country code',
        hint: 'Two letters (ISO 3166-1): FR, BE, DE…',
        autoComplete: 'country',
        upper: true,
      },
    ],
  },
  {
    legend: 'Payment and contact',
    fields: [
      {
        name: 'iban',
        label: 'IBAN',
        hint: 'Printed on the invoices for payment by transfer; spaces allowed.',
        upper: true,
      },
      { name: 'bic', label: 'BIC', hint: '8 or 11 characters.', compact: true, upper: true },
      {
        name: 'email',
        label: 'E-mail',
        hint: 'Where customers write about invoices.',
        type: 'email',
        inputMode: 'email',
        autoComplete: 'email',
      },
      { name: 'phone', label: 'Phone', type: 'tel', inputMode: 'tel', autoComplete: 'tel' },
    ],
  },
];

const FIELDS = GROUPS.flatMap((g) => g.fields);

/** What a field shows, as stored (the capital in euros). */
function shown(company: Company, name: Name): string {
  const value = company[name];
  if (value === null || value === undefined) return '';
  return name === 'share_capital_cents' ? centsToEuros(value as number) : String(value);
}

/**
 * The PUT body from the form: every field, a blank one null; the capital's euros as exact cents
 * (or the error to show beside it).
 */
export function companyBody(
  form: FormData,
): { body: Partial<Company>; error?: undefined } | { error: string; body?: undefined } {
  const body: Record<string, string | number | null> = {};
  for (const field of FIELDS) {
    let value = String(form.get(field.name) ?? '').trim();
    if (field.compact) value = value.replace(/\s+/g, '');
    if (field.upper) value = value.toUpperCase();
    if (!value) {
      body[field.name] = null;
      continue;
    }
    if (field.name === 'share_capital_cents') {
      const parsed = eurosToCents(value);
      if ('error' in parsed) return { error: parsed.error };
      // Exact: eurosToCents refuses what exceeds Number.MAX_SAFE_INTEGER cents.
      body[field.name] = Number(parsed.cents);
    } else body[field.name] = value;
  }
  return { body: body as Partial<Company> };
}

/**
 * Settings → Company (SPEC §20): the seller of every e-invoice — legal name, SIREN, SIRET, VAT
 * number, address, IBAN and BIC, contact. Admins change it; others with `accounting:read` read it.
 */
export function CompanySettingsPage() {
  const me = useMe();
  const settings = useLoad((signal) => client.get('/api/v1/settings/company', { signal }), []);
  const [error, setError] = useState<ApiError>();
  const [capitalError, setCapitalError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const editable = isAdmin(me) && me.rights.includes('accounting:write');
  const company = settings.data;
  const errors: Record<string, string> = { ...fieldErrors(error) };
  if (capitalError) errors.share_capital_cents = capitalError;
  const known = new Set<string>(FIELDS.map((f) => f.name));
  const unplaced = Object.entries(errors).filter(([path]) => !known.has(path));
  const attempt = useRef(0);
  const [attempted, setAttempted] = useState(0);

  // After a refused save, the first field in error gets the focus (its message is read with it).
  useEffect(() => {
    if (attempted) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempted]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setNotice(undefined);
    const made = companyBody(new FormData(event.currentTarget));
    if (made.error !== undefined) {
      setError(undefined);
      setCapitalError(made.error);
      setAttempted(++attempt.current);
      return;
    }
    setCapitalError(undefined);
    setBusy(true);
    const answer = await client.put('/api/v1/settings/company', { body: made.body });
    setBusy(false);
    setError(answer.error);
    if (answer.error) {
      setAttempted(++attempt.current);
      return;
    }
    setNotice('Saved: the next e-invoices name the company so.');
    settings.reload();
  };

  const problems = Object.keys(errors).length;
  return (
    <Page title="Company">
      <p className="lead">
        The seller of every invoice and credit note, as the e-invoices (Factur-X, UBL, CII) and
        their PDF print it: the legal name, SIREN, SIRET and VAT number, the address, the IBAN and
        BIC customers pay to, and a contact.
      </p>
      <ErrorBanner error={settings.error} />
      {notice ? <Notice>{notice}</Notice> : null}
      {!company ? (
        settings.loading ? (
          <Loading what="the company settings" />
        ) : null
      ) : editable ? (
        <form
          className="form card record-form company-form"
          onSubmit={submit}
          noValidate
          ref={formRef}
          key={JSON.stringify(company)}
        >
          {error && (problems === 0 || unplaced.length) ? (
            <div className="alert alert-error" role="alert">
              <p>{error.message}</p>
              {unplaced.length ? (
                <ul>
                  {unplaced.map(([path, message]) => (
                    <li key={path}>
                      <code>{path || 'body'}</code>: {message}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : problems ? (
            <p className="alert alert-error" role="alert">
              Some fields need attention: {problems} {problems === 1 ? 'problem' : 'problems'}{' '}
              below.
            </p>
          ) : null}
          {GROUPS.map((group) => (
            <fieldset key={group.legend} className="form-grid">
              <legend>{group.legend}</legend>
              {group.fields.map((f) => (
                <Field key={f.name} label={f.label} hint={f.hint} error={errors[f.name]}>
                  {(props) => (
                    <input
                      {...props}
                      name={f.name}
                      type={f.type ?? 'text'}
                      defaultValue={shown(company, f.name)}
                      autoComplete={f.autoComplete ?? 'off'}
                      {...(f.inputMode ? { inputMode: f.inputMode } : {})}
                      spellCheck={f.compact || f.upper ? false : undefined}
                    />
                  )}
                </Field>
              ))}
            </fieldset>
          ))}
          <div className="row">
            <button
              type="submit"
              className="button button-primary"
              aria-disabled={busy ? true : undefined}
            >
              {busy ? 'Saving…' : 'Save'}
            </button>
          </div>
        </form>
      ) : (
        <>
          <p>Only admins change these settings.</p>
          <dl className="facts card">
            {FIELDS.map((f) => (
              <Fragment key={f.name}>
                <dt>{f.name === 'share_capital_cents' ? 'Share capital' : f.label}</dt>
                <dd>
                  {company[f.name] === null
                    ? 'Not set'
                    : f.name === 'share_capital_cents'
                      ? `${formatAmount(company.share_capital_cents ?? 0, 'EUR')} EUR`
                      : String(company[f.name])}
                </dd>
              </Fragment>
            ))}
          </dl>
        </>
      )}
    </Page>
  );
}
