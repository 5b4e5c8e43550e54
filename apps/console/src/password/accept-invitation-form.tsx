import type { ApiError } from '@erp/sdk';
import { type FormEvent, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { useAuth } from '../api/auth';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { ErrorBanner } from '../ui/alert';
import { Field } from '../ui/field';
import type { Invitation } from './invitation-page';
import { NewPasswordFields, repeatedPassword } from './password-fields';

/**
 * An invitee without an account: the name (the invitation's by default) and the password of
 * the account they create by accepting; then logged in with it, in the organisation.
 */
export function AcceptInvitationForm({
  token,
  invitation,
  onAccountExists,
}: {
  token: string;
  invitation: Invitation;
  onAccountExists(): void;
}) {
  const { logIn } = useAuth();
  const [, navigate] = useLocation();
  const [error, setError] = useState<ApiError>();
  const [mismatch, setMismatch] = useState<string>();
  const busy = useRef(false);
  const passwordInput = useRef<HTMLInputElement>(null);
  const repeatInput = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy.current) return;
    const form = new FormData(event.currentTarget);
    const { password, same } = repeatedPassword(form);
    if (!same) {
      setMismatch('The two passwords are not the same.');
      repeatInput.current?.focus();
      return;
    }
    setMismatch(undefined);
    busy.current = true;
    try {
      const name = String(form.get('name') ?? '').trim();
      const answer = await client.post('/api/v1/auth/invitations/accept', {
        body: { token, password, ...(name ? { name } : {}) },
      });
      setError(answer.error);
      if (answer.error) {
        if (answer.error.code === 'conflit' && answer.error.params.reason === 'account_exists')
          onAccountExists();
        else if (fieldErrors(answer.error).password) passwordInput.current?.focus();
        return;
      }
      const failure = await logIn({
        email: answer.data.email,
        password,
        tenant: answer.data.tenant,
      });
      setError(failure);
      if (!failure) navigate('/', { replace: true });
    } finally {
      busy.current = false;
    }
  };

  const errors = fieldErrors(error);
  return (
    <form onSubmit={submit} className="form">
      {error && !errors.password && !errors.name ? <ErrorBanner error={error} /> : null}
      <p>Choose your name and the password you will log in with.</p>
      <Field label="Your name" required error={errors.name}>
        {(props) => (
          <input
            {...props}
            name="name"
            required
            maxLength={200}
            autoComplete="name"
            defaultValue={invitation.name}
          />
        )}
      </Field>
      <NewPasswordFields
        error={errors.password}
        mismatch={mismatch}
        passwordRef={passwordInput}
        repeatRef={repeatInput}
      />
      <button type="submit" className="button button-primary">
        Create my account and join
      </button>
    </form>
  );
}
