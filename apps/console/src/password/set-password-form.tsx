import type { ApiError } from '@erp/sdk';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useAuth } from '../api/auth';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { ErrorBanner, Notice } from '../ui/alert';
import { NewPasswordFields, repeatedPassword } from './password-fields';

/**
 * The new password of a reset link: posted with the link's token; once set, the person is
 * logged in with it and taken to the console.
 */
export function SetPasswordForm({ token, submitLabel }: { token: string; submitLabel: string }) {
  const { logIn } = useAuth();
  const [, navigate] = useLocation();
  const [error, setError] = useState<ApiError>();
  const [mismatch, setMismatch] = useState<string>();
  const [set, setSet] = useState(false);
  const busy = useRef(false);
  const repeatInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy.current) return;
    const { password, same } = repeatedPassword(new FormData(event.currentTarget));
    if (!same) {
      setMismatch('The two passwords are not the same.');
      repeatInput.current?.focus();
      return;
    }
    setMismatch(undefined);
    busy.current = true;
    try {
      const answer = await client.post('/api/v1/auth/password-reset/confirm', {
        body: { token, password },
      });
      setError(answer.error);
      if (answer.error) {
        if (fieldErrors(answer.error).password) passwordInput.current?.focus();
        return;
      }
      setSet(true);
      const { email, tenant } = answer.data;
      const failure = await logIn({ email, password, ...(tenant ? { tenant } : {}) });
      // Logged in: the console itself. Otherwise (single sign-on, say) the login page explains.
      if (!failure) navigate('/', { replace: true });
    } finally {
      busy.current = false;
    }
  };

  if (set) {
    return (
      <Notice>
        <p>Your password is set.</p>
        <p>
          <Link href="/login">Log in</Link>
        </p>
      </Notice>
    );
  }
  const errors = fieldErrors(error);
  return (
    <form onSubmit={submit} className="form">
      {error?.code === 'lien_invalide' ? (
        <div className="alert alert-error" role="alert">
          <p>{error.message}</p>
          <p>
            <Link href="/reset-password">Ask for a new link</Link>
          </p>
        </div>
      ) : error && !errors.password ? (
        <ErrorBanner error={error} />
      ) : null}
      <NewPasswordFields
        error={errors.password}
        mismatch={mismatch}
        passwordRef={passwordInput}
        repeatRef={repeatInput}
      />
      <button type="submit" className="button button-primary">
        {submitLabel}
      </button>
    </form>
  );
}
