import type { ApiError, components } from '@erp/sdk';
import { useState } from 'react';
import { isSuperAdmin, useAuth, useMe } from '../api/auth';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading, Notice } from '../ui/alert';
import { ConfirmButton, DialogButton } from '../ui/dialog';
import { formatDateTime } from '../ui/format';
import { Page } from '../ui/page';
import { InviteUserForm } from './invite-user-form';
import { RoleChecks } from './role-checks';
import { grantableRoles, holdsAdminRole } from './scopes';

type User = components['schemas']['User'];

/**
 * Settings → Users (SPEC §3): the tenant's members and pending invitations, their roles,
 * inviting, removing a member or withdrawing an invitation. An admin who is not a super-admin
 * is offered module roles only, and no action on a membership holding an admin role: the
 * portal would refuse them (`acces_refuse`), and says why if it does anyway.
 */
export function UsersPage() {
  const me = useMe();
  const superAdmin = isSuperAdmin(me);
  const users = useLoad(() => client.get('/api/v1/settings/users'), []);
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const roles = grantableRoles(me.tenant?.modules ?? [], superAdmin);

  const remove = async (user: User) => {
    const answer = await client.delete('/api/v1/settings/users/{id}', { path: { id: user.id } });
    setError(answer.error);
    setNotice(
      answer.error
        ? undefined
        : user.status === 'invited'
          ? `The invitation to ${user.email} is withdrawn: its link no longer works.`
          : `${user.name} removed.`,
    );
    users.reload();
  };

  return (
    <Page title="Users">
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={error ?? users.error} />
      {users.data ? (
        <div className="table-wrap">
          <table className="stacked">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Status</th>
                <th scope="col">Roles</th>
                <th scope="col">Since</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.data.map((user) => {
                const manageable = superAdmin || !holdsAdminRole(user.roles);
                return (
                  <tr key={user.id}>
                    <th scope="row">{user.name}</th>
                    <td data-label="E-mail" className="id">
                      {user.email}
                    </td>
                    <td data-label="Status">
                      {user.status === 'invited' ? (
                        <span className="badge badge-pending">Invited</span>
                      ) : (
                        <span className="badge badge-delivered">Active</span>
                      )}
                    </td>
                    <td data-label="Roles">{user.roles.join(', ')}</td>
                    <td data-label={user.status === 'invited' ? 'Invited' : 'Member since'}>
                      {formatDateTime(user.created_at)}
                    </td>
                    <td className="actions">
                      {manageable ? (
                        <>
                          <EditRolesButton
                            user={user}
                            roles={roles}
                            superAdmin={superAdmin}
                            onSaved={() => {
                              setError(undefined);
                              setNotice(`${user.name}’s roles saved.`);
                              users.reload();
                            }}
                          />
                          {user.id !== me.user.id ? (
                            <RemoveButton user={user} onConfirm={() => remove(user)} />
                          ) : null}
                        </>
                      ) : (
                        <span className="muted">Managed by super-admins</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : users.loading ? (
        <Loading what="users" />
      ) : null}
      <InviteUserForm
        roles={roles}
        superAdmin={superAdmin}
        onInvited={(user) => {
          setError(undefined);
          setNotice(`Invitation sent to ${user.email}. The link works for 7 days.`);
          users.reload();
        }}
      />
    </Page>
  );
}

function RemoveButton({ user, onConfirm }: { user: User; onConfirm(): Promise<void> }) {
  const invited = user.status === 'invited';
  return (
    <ConfirmButton
      label={
        <>
          {invited ? 'Withdraw' : 'Remove'}
          <span className="visually-hidden">
            {invited ? ` the invitation to ${user.email}` : ` ${user.name}`}
          </span>
        </>
      }
      title={invited ? `Withdraw the invitation to ${user.email}?` : `Remove ${user.name}?`}
      question={
        invited
          ? 'The link they were mailed stops working. You can invite them again later.'
          : 'They lose access to this organisation at once, and their API keys here stop working. Their account stays theirs.'
      }
      confirm={invited ? 'Withdraw' : 'Remove'}
      onConfirm={onConfirm}
    />
  );
}

function EditRolesButton({
  user,
  roles,
  superAdmin,
  onSaved,
}: {
  user: User;
  roles: string[];
  superAdmin: boolean;
  onSaved(): void;
}) {
  const me = useMe();
  const { chooseTenant } = useAuth();
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
              // One's own roles: what the console offers follows them.
              if (user.id === me.user.id && me.tenant) await chooseTenant(me.tenant.slug);
            }
          }}
        >
          <ErrorBanner error={error} />
          <RoleChecks
            roles={roles}
            superAdmin={superAdmin}
            selected={user.roles}
            error={fieldErrors(error).roles}
          />
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
