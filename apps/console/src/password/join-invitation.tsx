import type { ApiError } from '@erp/sdk';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useAuth } from '../api/auth';
import { client } from '../api/client';
import { ErrorBanner, Loading } from '../ui/alert';
import { Field } from '../ui/field';
import type { Invitation } from './invitation-page';

/**
 * An invitee who has an account accepts by signing in to it (the session is the proof), or,
 * already signed in as that e-mail, with one button; then lands in the organisation.
 */
export function JoinInvitation({ token, invitation }: { token: string; invitation: Invitation }) {
  const { state, logIn, chooseTenant } = useAuth();
  const [, navigate] = useLocation();
  const [error, setError] = useState<ApiError>();
  const busy = useRef(false);
  const signedInAs = state.status === 'ready' ? state.me.user.email : undefined;
  const isInvitee = signedInAs?.toLowerCase() === invitation.email.toLowerCase();

  /** Signs in first when a password is given, then joins and opens the organisation. */
  const join = async (password?: string) => {
    if (busy.current) return;
    busy.current = true;
    setError(undefined);
    try {
      if (password !== undefined) {
        const failure = await logIn({ email: invitation.email, password });
        if (failure) return setError(failure);
      }
      const answer = await client.post('/api/v1/auth/invitations/join', { body: { token } });
      if (answer.error) return setError(answer.error);
      await chooseTenant(answer.data.tenant);
      navigate('/', { replace: true });
    } finally {
      busy.current = false;
    }
  };

  if (state.status === 'loading') return <Loading what="your session" />;
  if (isInvitee) {
    return (
      <div className="form">
        <ErrorBanner error={error} />
        <p>You are signed in as {signedInAs}.</p>
        <button type="button" className="button button-primary" onClick={() => join()}>
          Join {invitation.tenant.name}
        </button>
      </div>
    );
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void join(String(new FormData(event.currentTarget).get('password') ?? ''));
  };
  return (
    <form onSubmit={submit} className="form">
      <h2>Sign in as {invitation.email} to accept</h2>
      {signedInAs ? (
        <p>
          You are signed in as {signedInAs}: signing in below switches to {invitation.email}.
        </p>
      ) : (
        <p>This e-mail already has an account: its password is all it takes.</p>
      )}
      <ErrorBanner error={error} />
      <Field label="E-mail">
        {(props) => (
          <input
            {...props}
            name="email"
            type="email"
            autoComplete="username"
            value={invitation.email}
            readOnly
          />
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
      <button type="submit" className="button button-primary">
        Sign in and join
      </button>
      <p>
        <Link href="/reset-password">Forgot your password?</Link>
      </p>
    </form>
  );
}
