import type { ApiError } from '@erp/sdk';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { useAuth } from '../api/auth';
import { ErrorBanner } from '../ui/alert';
import { Field } from '../ui/field';
import { Page } from '../ui/page';

/** Password login; a tenant that signs in through its identity provider gets a link there. */
export function LoginPage() {
  const { logIn } = useAuth();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const params = new URLSearchParams(window.location.search);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    const tenant = String(form.get('tenant') ?? '').trim();
    const failure = await logIn({
      email: String(form.get('email')),
      password: String(form.get('password')),
      ...(tenant ? { tenant } : {}),
    });
    setBusy(false);
    setError(failure);
  };

  const ssoUrl = error?.code === 'sso_requis' ? String(error.params.authorize_url ?? '') : '';
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
              hint="Optional: its short name (slug), e.g. demo. Without it you choose after logging in."
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
            <button type="submit" className="button button-primary" aria-disabled={busy}>
              {busy ? 'Logging in…' : 'Log in'}
            </button>
          </form>
          <p>
            <Link href="/reset-password">Forgot your password?</Link>
          </p>
        </Page>
      </main>
    </div>
  );
}
