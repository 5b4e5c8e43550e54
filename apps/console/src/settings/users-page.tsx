import type { ApiError, components } from '@erp/sdk';
import { type FormEvent, useState } from 'react';
import { useMe } from '../api/auth';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading, Notice } from '../ui/alert';
import { ConfirmButton, DialogButton } from '../ui/dialog';
import { Field, FieldSet } from '../ui/field';
import { formatDateTime } from '../ui/format';
import { Page } from '../ui/page';
import { availableRoles } from './scopes';

type User = components['schemas']['User'];

function RoleChecks({
  roles,
  selected = [],
  error,
}: {
  roles: string[];
  selected?: string[];
  error?: string | undefined;
}) {
  return (
    <FieldSet
      legend="Roles"
      error={error}
      hint="Admins hold every right; readers and editors one module each."
    >
      <div className="checks">
        {roles.map((role) => (
          <label key={role} className="check">
            <input
              type="checkbox"
              name="roles"
              value={role}
              defaultChecked={selected.includes(role)}
            />
            <span>{role}</span>
          </label>
        ))}
      </div>
    </FieldSet>
  );
}

/** Settings → Users: the tenant's members, their roles, adding, changing and removing them. */
export function UsersPage() {
  const me = useMe();
  const users = useLoad(() => client.get('/api/v1/settings/users'), []);
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const roles = availableRoles(me.tenant?.modules ?? []);

  const remove = async (user: User) => {
    const answer = await client.delete('/api/v1/settings/users/{id}', { path: { id: user.id } });
    setError(answer.error);
    if (!answer.error) setNotice(`${user.name} removed.`);
    users.reload();
  };

  return (
    <Page title="Users">
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={error ?? users.error} />
      {users.data ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Roles</th>
                <th scope="col">Added</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.data.map((user) => (
                <tr key={user.id}>
                  <th scope="row">{user.name}</th>
                  <td>{user.email}</td>
                  <td>{user.roles.join(', ')}</td>
                  <td>{formatDateTime(user.created_at)}</td>
                  <td className="actions">
                    <EditRolesButton
                      user={user}
                      roles={roles}
                      onSaved={() => {
                        setNotice(`${user.name}’s roles saved.`);
                        users.reload();
                      }}
                    />
                    {user.id !== me.user.id ? (
                      <ConfirmButton
                        label={
                          <>
                            Remove<span className="visually-hidden"> {user.name}</span>
                          </>
                        }
                        title={`Remove ${user.name}?`}
                        question="They lose access to this organisation at once, and their API keys here stop working."
                        confirm="Remove"
                        onConfirm={() => remove(user)}
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : users.loading ? (
        <Loading what="users" />
      ) : null}
      <AddUserForm
        roles={roles}
        onAdded={(user) => {
          setNotice(`${user.name} added.`);
          users.reload();
        }}
      />
    </Page>
  );
}

function AddUserForm({ roles, onAdded }: { roles: string[]; onAdded(user: User): void }) {
  const [error, setError] = useState<ApiError>();
  const errors = fieldErrors(error);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const password = String(form.get('password') ?? '');
    const answer = await client.post('/api/v1/settings/users', {
      body: {
        email: String(form.get('email')).trim(),
        name: String(form.get('name')).trim(),
        roles: form.getAll('roles').map(String),
        ...(password ? { password } : {}),
      },
    });
    setError(answer.error);
    if (answer.data) {
      formElement.reset();
      onAdded(answer.data);
    }
  };
  return (
    <section className="card" aria-labelledby="add-user">
      <h2 id="add-user">Add a user</h2>
      <form className="form" onSubmit={submit}>
        {error && Object.keys(errors).length === 0 ? <ErrorBanner error={error} /> : null}
        <Field label="E-mail" required error={errors.email}>
          {(props) => <input {...props} name="email" type="email" required autoComplete="off" />}
        </Field>
        <Field label="Name" required error={errors.name}>
          {(props) => <input {...props} name="name" required maxLength={200} autoComplete="off" />}
        </Field>
        <RoleChecks roles={roles} error={errors.roles} />
        <Field
          label="Initial password"
          error={errors.password}
          hint="Optional. Leave it empty to e-mail them an invitation to choose their own (the link works for 7 days). Ignored for someone who already has an account on the platform."
        >
          {(props) => (
            <input {...props} name="password" type="password" autoComplete="new-password" />
          )}
        </Field>
        <button type="submit" className="button button-primary">
          Add user
        </button>
      </form>
    </section>
  );
}

function EditRolesButton({
  user,
  roles,
  onSaved,
}: {
  user: User;
  roles: string[];
  onSaved(): void;
}) {
  const [error, setError] = useState<ApiError>();
  return (
    <DialogButton
      label={
        <>
          Roles<span className="visually-hidden"> of {user.name}</span>
        </>
      }
      title={`Roles of ${user.name}`}
    >
      {(close) => (
        <form
          className="form"
          onSubmit={async (event) => {
            event.preventDefault();
            const chosen = new FormData(event.currentTarget).getAll('roles').map(String);
            const answer = await client.patch('/api/v1/settings/users/{id}', {
              path: { id: user.id },
              body: { roles: chosen },
            });
            setError(answer.error);
            if (answer.data) {
              close();
              onSaved();
            }
          }}
        >
          <ErrorBanner error={error} />
          <RoleChecks roles={roles} selected={user.roles} error={fieldErrors(error).roles} />
          <div className="row">
            <button type="submit" className="button button-primary">
              Save roles
            </button>
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </DialogButton>
  );
}
