import type { ApiError } from '@erp/sdk';
import { type FormEvent, useState } from 'react';
import { useMe } from '../api/auth';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading, Notice } from '../ui/alert';
import { CopyButton } from '../ui/copy-button';
import { ConfirmButton } from '../ui/dialog';
import { Field } from '../ui/field';
import { formatDateTime } from '../ui/format';
import { Page } from '../ui/page';
import { availableRoles } from './scopes';

/** Settings → Single sign-on (admins): the tenant's OpenID provider and who may join through it. */
export function SsoPage() {
  const me = useMe();
  const settings = useLoad(() => client.get('/api/v1/settings/sso'), []);
  const [error, setError] = useState<ApiError>();
  const [notice, setNotice] = useState<string>();
  const errors = fieldErrors(error);
  const s = settings.data;
  // Just-in-time members never become super-admins (the API refuses it).
  const roles = availableRoles(me.tenant?.modules ?? []).filter((r) => r !== 'super-admin');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const secret = String(form.get('client_secret') ?? '');
    const domains = String(form.get('allowed_domains') ?? '')
      .split(/[\s,]+/)
      .filter(Boolean);
    const answer = await client.put('/api/v1/settings/sso', {
      body: {
        issuer: String(form.get('issuer') ?? '').trim(),
        client_id: String(form.get('client_id') ?? '').trim(),
        ...(secret ? { client_secret: secret } : {}),
        allowed_domains: domains,
        default_role: String(form.get('default_role') ?? ''),
        enforced: form.get('enforced') === 'on',
      },
    });
    setError(answer.error);
    setNotice(answer.error ? undefined : 'Saved: the provider answered and its keys were read.');
    if (!answer.error) settings.reload();
  };

  const remove = async () => {
    const answer = await client.delete('/api/v1/settings/sso');
    setError(answer.error);
    setNotice(answer.error ? undefined : 'Single sign-on removed: password logins work again.');
    if (!answer.error) settings.reload();
  };

  return (
    <Page title="Single sign-on">
      <p className="lead">
        People of this organisation sign in through your OpenID Connect provider (Okta, Entra ID,
        Google Workspace, Keycloak…). Register this portal with it as a web application using the
        redirect URI below.
      </p>
      <ErrorBanner error={settings.error} />
      {notice ? <Notice>{notice}</Notice> : null}
      {s ? (
        <>
          <dl className="facts card">
            <dt>Redirect URI</dt>
            <dd className="url">
              <code>{s.redirect_uri}</code> <CopyButton text={s.redirect_uri} />
            </dd>
            <dt>Sign-in link</dt>
            <dd className="url">
              <code>{s.start_url}</code> <CopyButton text={s.start_url} />
            </dd>
            <dt>Status</dt>
            <dd>
              {s.configured
                ? s.enforced
                  ? 'Required: password logins are refused (super-admins keep theirs)'
                  : 'Offered beside passwords'
                : 'Not set up'}
            </dd>
            {s.updated_at ? (
              <>
                <dt>Changed</dt>
                <dd>{formatDateTime(s.updated_at)}</dd>
              </>
            ) : null}
            {s.legacy_authorize_url ? (
              <>
                <dt>Former sign-in URL</dt>
                <dd className="url">
                  {s.legacy_authorize_url} (replaced when you save a provider here)
                </dd>
              </>
            ) : null}
          </dl>
          <form className="form card" onSubmit={submit} key={s.updated_at ?? 'new'}>
            {error && Object.keys(errors).length === 0 ? <ErrorBanner error={error} /> : null}
            <Field
              label="Issuer"
              required
              error={errors.issuer}
              hint="Exactly as the provider's discovery document states it, e.g. https://login.example.com/tenant-42."
            >
              {(props) => (
                <input {...props} name="issuer" type="url" required defaultValue={s.issuer ?? ''} />
              )}
            </Field>
            <Field label="Client ID" required error={errors.client_id}>
              {(props) => (
                <input {...props} name="client_id" required defaultValue={s.client_id ?? ''} />
              )}
            </Field>
            <Field
              label="Client secret"
              required={!s.client_secret_set}
              error={errors.client_secret}
              hint={
                s.client_secret_set
                  ? 'A secret is stored (never shown). Leave empty to keep it.'
                  : 'Stored encrypted; never shown again.'
              }
            >
              {(props) => (
                <input
                  {...props}
                  name="client_secret"
                  type="password"
                  autoComplete="off"
                  required={!s.client_secret_set}
                />
              )}
            </Field>
            <Field
              label="Domains that may join"
              error={
                errors.allowed_domains ??
                Object.entries(errors)
                  .filter(([path]) => path.startsWith('allowed_domains.'))
                  .map(([, message]) => message)
                  .join('; ')
              }
              hint="People whose verified e-mail is in one of these domains (space or comma separated) become members on their first sign-in. Others must be added under Users."
            >
              {(props) => (
                <input
                  {...props}
                  name="allowed_domains"
                  defaultValue={s.allowed_domains.join(' ')}
                />
              )}
            </Field>
            <Field label="Role of new members" required error={errors.default_role}>
              {(props) => (
                <select
                  {...props}
                  name="default_role"
                  required
                  defaultValue={s.default_role ?? roles.find((r) => r.endsWith(':reader'))}
                >
                  {roles.map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <label className="check">
              <input type="checkbox" name="enforced" defaultChecked={s.enforced} />
              <span>Require single sign-on (super-admins keep their password as a fallback)</span>
            </label>
            <button type="submit" className="button button-primary">
              Save
            </button>
          </form>
          {s.configured || s.legacy_authorize_url ? (
            <ConfirmButton
              label="Remove single sign-on"
              title="Remove single sign-on?"
              question="People will log in with passwords again. Sessions opened through the provider last until they end."
              confirm="Remove"
              onConfirm={remove}
            />
          ) : null}
        </>
      ) : settings.loading ? (
        <Loading what="the single sign-on settings" />
      ) : null}
    </Page>
  );
}
