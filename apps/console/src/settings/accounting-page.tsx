import type { ApiError, components } from '@erp/sdk';
import { type FormEvent, Fragment, useState } from 'react';
import { isAdmin, useMe } from '../api/auth';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { useLoad } from '../api/use-load';
import { type Account, accountName, postableAccounts } from '../books/accounts';
import { ErrorBanner, Loading, Notice } from '../ui/alert';
import { Field } from '../ui/field';
import { humanize } from '../ui/format';
import { Page } from '../ui/page';

type Settings = components['schemas']['AccountingSettings'];
type Setting = keyof Settings['accounts'];

/** An account as the settings show it: code and name, and whether it still takes postings. */
function describe(account: Account | undefined, id: string | null): string {
  if (!id) return 'Not set';
  if (!account) return id;
  return `${accountName(account)}${account.status === 'actif' ? '' : ` (${account.status})`}`;
}

/**
 * Settings → Accounting (SPEC §17): the company currency and the twelve default accounts the
 * postings use, each picked from the chart. Admins change them; others with `accounting:read`
 * read them.
 */
export function AccountingSettingsPage() {
  const me = useMe();
  const settings = useLoad((signal) => client.get('/api/v1/settings/accounting', { signal }), []);
  const accounts = useLoad((signal) => postableAccounts(signal), []);
  const [error, setError] = useState<ApiError>();
  const [notice, setNotice] = useState<string>();
  const editable = isAdmin(me) && me.rights.includes('accounting:write');
  const s = settings.data;
  const byId = new Map((accounts.data ?? []).map((a) => [a.id, a]));
  const errors = fieldErrors(error);
  // `compte_invalide` names the setting whose account takes no posting.
  const refused =
    error?.code === 'compte_invalide' ? String(error.params.setting ?? '') : undefined;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!s) return;
    const form = new FormData(event.currentTarget);
    const chosen = Object.fromEntries(
      (Object.keys(s.accounts) as Setting[]).map((name) => [
        name,
        String(form.get(name) ?? '') || null,
      ]),
    ) as Settings['accounts'];
    const answer = await client.put('/api/v1/settings/accounting', {
      body: {
        company_currency: String(form.get('company_currency') ?? '')
          .trim()
          .toUpperCase(),
        accounts: chosen,
      },
    });
    setError(answer.error);
    setNotice(answer.error ? undefined : 'Saved: new postings use these accounts.');
    if (!answer.error) settings.reload();
  };

  return (
    <Page title="Accounting">
      <p className="lead">
        The currency of the books and the accounts each posting uses by default. A customer’s or
        supplier’s own account, a product’s revenue and expense accounts, a tax’s account and a bank
        journal’s account override them.
      </p>
      <ErrorBanner error={settings.error ?? accounts.error} />
      {notice ? <Notice>{notice}</Notice> : null}
      {!s || !accounts.data ? (
        settings.loading || accounts.loading ? (
          <Loading what="the accounting settings" />
        ) : null
      ) : editable ? (
        <form className="form card record-form" onSubmit={submit} key={JSON.stringify(s)}>
          {error && Object.keys(errors).length === 0 ? <ErrorBanner error={error} /> : null}
          <Field
            label="Company currency"
            required
            error={errors.company_currency}
            hint="ISO 4217 code, e.g. EUR: journal lines are in it."
          >
            {(props) => (
              <input
                {...props}
                name="company_currency"
                required
                maxLength={3}
                autoComplete="off"
                className="currency-input"
                defaultValue={s.company_currency}
              />
            )}
          </Field>
          <fieldset className="form-grid">
            <legend>Default accounts</legend>
            {(Object.entries(s.accounts) as [Setting, string | null][]).map(([name, id]) => (
              <Field
                key={name}
                label={humanize(name)}
                error={refused === name ? error?.message : errors[`accounts.${name}`]}
              >
                {(props) => (
                  <select {...props} name={name} defaultValue={id ?? ''}>
                    <option value="">Not set</option>
                    {id && !byId.has(id) ? <option value={id}>{id}</option> : null}
                    {accounts.data!.map((a) => (
                      <option key={a.id} value={a.id}>
                        {describe(a, a.id)}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            ))}
          </fieldset>
          <button type="submit" className="button button-primary">
            Save
          </button>
        </form>
      ) : (
        <>
          <p>Only admins change these settings.</p>
          <dl className="facts card">
            <dt>Company currency</dt>
            <dd>{s.company_currency}</dd>
            {(Object.entries(s.accounts) as [Setting, string | null][]).map(([name, id]) => (
              <Fragment key={name}>
                <dt>{humanize(name)}</dt>
                <dd>{describe(id ? byId.get(id) : undefined, id)}</dd>
              </Fragment>
            ))}
          </dl>
        </>
      )}
    </Page>
  );
}
