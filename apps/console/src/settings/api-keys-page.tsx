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
import { SecretOnce } from '../ui/secret-once';
import { availableScopes, dayFromNow } from './scopes';

type ApiKey = components['schemas']['ApiKey'];
type CreatedKey = components['schemas']['CreatedApiKey'];

function keyState(key: ApiKey): string {
  if (key.revoked_at) return 'Revoked';
  if (Date.parse(key.expires_at) <= Date.now()) return 'Expired';
  return 'Active';
}

/** Settings → API keys: create (shown once), list with prefix and last use, roll, revoke. */
export function ApiKeysPage() {
  const keys = useLoad(() => client.get('/api/v1/settings/api-keys'), []);
  const [created, setCreated] = useState<CreatedKey>();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<ApiError>();

  const revoke = async (key: ApiKey) => {
    const answer = await client.delete('/api/v1/settings/api-keys/{id}', { path: { id: key.id } });
    setError(answer.error);
    if (!answer.error) setNotice(`Key “${key.name}” revoked.`);
    keys.reload();
  };

  return (
    <Page title="API keys">
      <p className="lead">
        Keys let your own programs call the API. A key acts with its scopes, within the rights of
        the admin who created it.
      </p>
      {created ? (
        <SecretOnce
          title={`Key “${created.name}” created`}
          secret={created.key}
          note="Copy it now: this is the only time it is shown. Only its prefix is kept visible."
          onDone={() => setCreated(undefined)}
        />
      ) : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={error} />
      <CreateKeyForm
        onCreated={(key) => {
          setNotice(undefined);
          setCreated(key);
          keys.reload();
        }}
      />
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        <ErrorBanner error={keys.error} />
        {keys.data ? (
          keys.data.data.length === 0 ? (
            <p>No key yet.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Prefix</th>
                    <th scope="col">Scopes</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Last used</th>
                    <th scope="col">State</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {keys.data.data.map((key) => (
                    <tr key={key.id}>
                      <th scope="row">{key.name}</th>
                      <td>
                        <code>{key.prefix}</code>
                      </td>
                      <td>{key.scopes.join(', ')}</td>
                      <td>{formatDateTime(key.expires_at)}</td>
                      <td>{key.last_used_at ? formatDateTime(key.last_used_at) : 'Never'}</td>
                      <td>{keyState(key)}</td>
                      <td className="actions">
                        {keyState(key) === 'Active' ? (
                          <>
                            <RollButton
                              apiKey={key}
                              onRolled={(next) => {
                                setCreated(next);
                                keys.reload();
                              }}
                            />
                            <ConfirmButton
                              label={
                                <>
                                  Revoke<span className="visually-hidden"> {key.name}</span>
                                </>
                              }
                              title="Revoke this key?"
                              question={`Programs using “${key.name}” (${key.prefix}) are refused from their next request on.`}
                              confirm="Revoke"
                              onConfirm={() => revoke(key)}
                            />
                          </>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        ) : keys.loading ? (
          <Loading what="keys" />
        ) : null}
      </section>
    </Page>
  );
}

function CreateKeyForm({ onCreated }: { onCreated(key: CreatedKey): void }) {
  const me = useMe();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const errors = fieldErrors(error);
  const scopes = availableScopes(me.tenant?.modules ?? []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setBusy(true);
    const answer = await client.post('/api/v1/settings/api-keys', {
      body: {
        name: String(form.get('name')),
        scopes: form.getAll('scopes').map(String),
        expires_at: `${String(form.get('expires'))}T23:59:59Z`,
      },
    });
    setBusy(false);
    setError(answer.error);
    if (answer.data) {
      formElement.reset();
      onCreated(answer.data);
    }
  };

  return (
    <section className="card" aria-labelledby="create-key">
      <h2 id="create-key">Create a key</h2>
      <form className="form" onSubmit={submit}>
        {error && Object.keys(errors).length === 0 ? <ErrorBanner error={error} /> : null}
        <Field label="Name" required error={errors.name} hint="What uses it, e.g. “Shop sync”.">
          {(props) => <input {...props} name="name" required maxLength={100} />}
        </Field>
        <FieldSet
          legend="Scopes"
          error={errors.scopes}
          hint="What the key may do (write implies read)."
        >
          <div className="checks">
            {scopes.map((scope) => (
              <label key={scope} className="check">
                <input type="checkbox" name="scopes" value={scope} />
                <span>{scope}</span>
              </label>
            ))}
          </div>
        </FieldSet>
        <Field
          label="Expires on"
          required
          error={errors.expires_at}
          hint="At most one year ahead; the key stops working at the end of that day (UTC)."
        >
          {(props) => (
            <input
              {...props}
              name="expires"
              type="date"
              required
              min={dayFromNow(1)}
              max={dayFromNow(365)}
              defaultValue={dayFromNow(90)}
            />
          )}
        </Field>
        <button type="submit" className="button button-primary" aria-disabled={busy}>
          Create key
        </button>
      </form>
    </section>
  );
}

function RollButton({ apiKey, onRolled }: { apiKey: ApiKey; onRolled(key: CreatedKey): void }) {
  const [error, setError] = useState<ApiError>();
  return (
    <DialogButton
      label={
        <>
          Roll<span className="visually-hidden"> {apiKey.name}</span>
        </>
      }
      title={`Roll “${apiKey.name}”`}
    >
      {(close) => (
        <form
          className="form"
          onSubmit={async (event) => {
            event.preventDefault();
            const hours = Number(new FormData(event.currentTarget).get('hours'));
            const answer = await client.post('/api/v1/settings/api-keys/{id}/roll', {
              path: { id: apiKey.id },
              body: { expire_previous_in_hours: hours },
            });
            setError(answer.error);
            if (answer.data) {
              close();
              onRolled(answer.data);
            }
          }}
        >
          <p>A new key with the same name and scopes replaces this one.</p>
          <ErrorBanner error={error} />
          <Field
            label="Keep the old key working for (hours)"
            hint="0 to 168. 0 revokes it now (a leaked key)."
            error={fieldErrors(error).expire_previous_in_hours}
          >
            {(props) => (
              <input
                {...props}
                name="hours"
                type="number"
                min={0}
                max={168}
                defaultValue={24}
                required
              />
            )}
          </Field>
          <div className="row">
            <button type="submit" className="button button-primary">
              Roll key
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
