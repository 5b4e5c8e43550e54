import type { ApiError } from '@erp/sdk';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { useAuth, withReturnTo } from '../api/auth';
import { ErrorBanner } from '../ui/alert';
import { Field } from '../ui/field';
import { Page } from '../ui/page';

/** What a single sign-on that came back refused means to the person (`/login?sso_error=`). */
const SSO_ERRORS: Record<string, string> = {
  etat_sso_invalide:
    'The sign-in expired, was already used, or began in another browser. Start again.',
  jeton_sso_invalide:
    'Your identity provider’s answer could not be verified, or it refused the sign-in.',
  acces_refuse:
    'Your account is not allowed in this organisation: ask one of its admins to add you.',
  fournisseur_sso_indisponible:
    'Your organisation’s identity provider cannot be reached right now. Try again later.',
  introuvable: 'This organisation does not sign in through single sign-on.',
  requete_invalide: 'This sign-in link is not valid.',
};

/**
 * Password login, and single sign-on: with the organisation's short name, or through the link
 * a password login answers for an organisation that requires it (`sso_requis`).
 */
export function LoginPage() {
  const { logIn } = useAuth();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [tenantMissing, setTenantMissing] = useState(false);
  const params = new URLSearchParams(window.location.search);
  const ssoError = params.get('sso_error');
  const next = params.get('next');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    const tenant = String(form.get('tenant') ?? '').trim();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter?.getAttribute('value') === 'sso') {
      setTenantMissing(!tenant);
      if (tenant) {
        const start = `/api/v1/auth/sso/start?${new URLSearchParams({ tenant: tenant.toLowerCase() })}`;
        window.location.assign(withReturnTo(start, next));
      }
      return;
    }
    setTenantMissing(false);
    setBusy(true);
    setError(undefined);
    const failure = await logIn({
      email: String(form.get('email')),
      password: String(form.get('password')),
      ...(tenant ? { tenant } : {}),
    });
    setBusy(false);
    setError(failure);
  };

  const ssoUrl =
    error?.code === 'sso_requis'
      ? withReturnTo(String(error.params.authorize_url ?? ''), next)
      : '';
  return (
    <div className="login">
      <main id="main" className="login-card">
        <p className="brand">ERP console</p>
        <Page title="Log in">
          {ssoUrl ? (
            <div className="alert alert-info" role="alert">
              <p>This organisation signs in through its identity provider.</p>
              <p>
                <a className="button button-primary" href={ssoUrl}>
                  Continue with single sign-on
                </a>
              </p>
            </div>
          ) : (
            <ErrorBanner error={error} />
          )}
          {ssoError && !error ? (
            <div className="alert alert-error" role="alert">
              <p>{SSO_ERRORS[ssoError] ?? 'Single sign-on did not succeed. Start again.'}</p>
              <p className="alert-code">
                <code>{ssoError}</code>
              </p>
            </div>
          ) : null}
          <form onSubmit={submit} className="form" noValidate={false}>
            <Field label="E-mail" required>
              {(props) => (
                <input {...props} name="email" type="email" autoComplete="username" required />
              )}
            </Field>
            <Field label="Password" required>
              {(props) => (
                <input
                  {...props}
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required
                />
              )}
            </Field>
            <Field
              label="Organisation"
              hint="Optional: its short name (slug), e.g. demo. Without it you choose after logging in. Needed for single sign-on."
              error={
                tenantMissing
                  ? 'Enter your organisation’s short name to sign in through it.'
                  : undefined
              }
            >
              {(props) => (
                <input
                  {...props}
                  name="tenant"
                  autoComplete="organization"
                  defaultValue={params.get('tenant') ?? ''}
                />
              )}
            </Field>
            <div className="login-actions">
              <button type="submit" className="button button-primary" aria-disabled={busy}>
                {busy ? 'Logging in…' : 'Log in'}
              </button>
              <button type="submit" className="button" name="via" value="sso" formNoValidate>
                Use single sign-on
              </button>
            </div>
          </form>
          <p>
            <Link href="/reset-password">Forgot your password?</Link>
          </p>
        </Page>
      </main>
    </div>
  );
}
