import type { ApiError } from '@erp/sdk';
import { type FormEvent, useRef, useState } from 'react';
import { Link } from 'wouter';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { ErrorBanner, Notice } from '../ui/alert';
import { Field } from '../ui/field';
import { CardScreen } from './card-screen';
import { useLinkToken } from './link-token';
import { SetPasswordForm } from './set-password-form';

/**
 * `/reset-password`: without a token, ask for a link by e-mail; with the link's `?token=`,
 * choose the new password.
 */
export function ResetPasswordPage() {
  const token = useLinkToken();
  return (
    <CardScreen title={token ? 'Choose a new password' : 'Reset your password'}>
      {token ? (
        <SetPasswordForm token={token} submitLabel="Set my password" />
      ) : (
        <RequestLinkForm />
      )}
      <p>
        <Link href="/login">Back to log in</Link>
      </p>
    </CardScreen>
  );
}

function RequestLinkForm() {
  const [error, setError] = useState<ApiError>();
  const [sentTo, setSentTo] = useState<string>();
  const busy = useRef(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy.current) return;
    busy.current = true;
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    try {
      const answer = await client.post('/api/v1/auth/password-reset', { body: { email } });
      setError(answer.error);
      if (!answer.error) setSentTo(email);
    } finally {
      busy.current = false;
    }
  };

  if (sentTo) {
    return (
      <Notice>
        <p>
          If an account uses {sentTo}, a link to choose a new password is on its way. It works once,
          within 30 minutes.
        </p>
      </Notice>
    );
  }
  const errors = fieldErrors(error);
  return (
    <form onSubmit={submit} className="form">
      {error && !errors.email ? <ErrorBanner error={error} /> : null}
      <p>Enter the e-mail you log in with: we will send you a link to choose a new password.</p>
      <Field label="E-mail" required error={errors.email}>
        {(props) => <input {...props} name="email" type="email" autoComplete="username" required />}
      </Field>
      <button type="submit" className="button button-primary">
        Send me a link
      </button>
    </form>
  );
}
