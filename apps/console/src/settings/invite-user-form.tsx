import type { ApiError, components } from '@erp/sdk';
import { type FormEvent, useRef, useState } from 'react';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { ErrorBanner } from '../ui/alert';
import { Field } from '../ui/field';
import { RoleChecks } from './role-checks';

type User = components['schemas']['User'];

/**
 * Inviting a person (SPEC §3): an e-mail, whom it is addressed to, the roles. No password: the
 * person accepts through the mailed link, signing in to their account or choosing a password.
 */
export function InviteUserForm({
  roles,
  superAdmin,
  onInvited,
}: {
  roles: string[];
  superAdmin: boolean;
  onInvited(user: User): void;
}) {
  const [error, setError] = useState<ApiError>();
  const busy = useRef(false);
  const errors = fieldErrors(error);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy.current) return;
    busy.current = true;
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    try {
      const answer = await client.post('/api/v1/settings/users', {
        body: {
          email: String(form.get('email')).trim(),
          name: String(form.get('name')).trim(),
          roles: form.getAll('roles').map(String),
        },
      });
      setError(answer.error);
      if (answer.data) {
        formElement.reset();
        onInvited(answer.data);
      }
    } finally {
      busy.current = false;
    }
  };
  return (
    <section className="card" aria-labelledby="invite-user">
      <h2 id="invite-user">Invite a person</h2>
      <p className="hint">
        They receive an e-mail with a link that works for 7 days, and become a member once they
        accept it: by signing in if they already have an account, or by choosing their password.
      </p>
      <form className="form" onSubmit={submit}>
        {error && Object.keys(errors).length === 0 ? <ErrorBanner error={error} /> : null}
        <Field label="E-mail" required error={errors.email}>
          {(props) => <input {...props} name="email" type="email" required autoComplete="off" />}
        </Field>
        <Field
          label="Name"
          required
          error={errors.name}
          hint="Whom the invitation is addressed to."
        >
          {(props) => <input {...props} name="name" required maxLength={200} autoComplete="off" />}
        </Field>
        <RoleChecks roles={roles} superAdmin={superAdmin} error={errors.roles} />
        <button type="submit" className="button button-primary">
          Send invitation
        </button>
      </form>
    </section>
  );
}
