import type { ApiError, components } from '@erp/sdk';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading, Notice } from '../ui/alert';
import { ConfirmButton, DialogButton } from '../ui/dialog';
import { Field } from '../ui/field';
import { formatDateTime } from '../ui/format';
import { Page } from '../ui/page';
import { SecretOnce } from '../ui/secret-once';
import { DeliveryLog } from './delivery-log';
import { EventPicker } from './event-picker';
import { subscriptionState, WebhookHealth } from './webhook-health';

type Subscription = components['schemas']['WebhookSubscription'];

/** One subscription: its settings, secret rotation, test delivery, and its delivery log. */
export function WebhookPage() {
  const { id } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const subscription = useLoad(
    () => client.get('/api/v1/settings/webhooks/{id}', { path: { id } }),
    [id],
  );
  const [secret, setSecret] = useState<{ secret: string; until: string }>();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [logVersion, setLogVersion] = useState(0);

  const s = subscription.data;
  if (!s) {
    return (
      <Page title="Webhook subscription">
        <ErrorBanner error={subscription.error} />
        {subscription.loading ? <Loading what="the subscription" /> : null}
        <p>
          <Link href="/settings/webhooks">All subscriptions</Link>
        </p>
      </Page>
    );
  }

  const sendTest = async () => {
    const answer = await client.post('/api/v1/settings/webhooks/{id}/test', { path: { id } });
    setError(answer.error);
    if (answer.data) {
      setNotice('Test delivery queued: it appears in the delivery log below.');
      setLogVersion((v) => v + 1);
    }
  };
  const remove = async () => {
    const answer = await client.delete('/api/v1/settings/webhooks/{id}', { path: { id } });
    if (answer.error) setError(answer.error);
    else navigate('/settings/webhooks');
  };

  return (
    <Page
      title="Webhook subscription"
      actions={
        <>
          <button type="button" className="button" onClick={sendTest}>
            Send test delivery
          </button>
          <RotateSecretButton
            id={id}
            onRotated={(rotated) => {
              setSecret({ secret: rotated.secret, until: rotated.previous_secret_expires_at });
              subscription.reload();
            }}
          />
          <ConfirmButton
            label="Delete"
            title="Delete this subscription?"
            question="It stops receiving events, and its delivery log is deleted."
            confirm="Delete subscription"
            onConfirm={remove}
          />
        </>
      }
    >
      <p>
        <Link href="/settings/webhooks">← All subscriptions</Link>
      </p>
      {secret ? (
        <SecretOnce
          title="New signing secret"
          secret={secret.secret}
          note={`Deliveries are signed with both the new and the previous secret until ${formatDateTime(secret.until)}; update the receiver before then. Not shown again.`}
          onDone={() => setSecret(undefined)}
        />
      ) : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={error} />
      <WebhookHealth
        subscription={s}
        onChanged={(text) => {
          setNotice(text);
          setLogVersion((v) => v + 1);
          subscription.reload();
        }}
      />
      <dl className="facts card">
        <dt>Endpoint</dt>
        <dd className="url">{s.url}</dd>
        <dt>State</dt>
        <dd>
          {s.enabled
            ? subscriptionState(s)
            : s.disabled_reason
              ? `Disabled by the platform ${formatDateTime(s.disabled_at)}`
              : 'Disabled'}
        </dd>
        <dt>Payload version</dt>
        <dd>{s.webhook_version}</dd>
        <dt>Previous secret</dt>
        <dd>
          {s.previous_secret_expires_at
            ? Date.parse(s.previous_secret_expires_at) > Date.now()
              ? `still signing until ${formatDateTime(s.previous_secret_expires_at)}`
              : `retired ${formatDateTime(s.previous_secret_expires_at)}`
            : 'never rotated'}
        </dd>
        <dt>Events</dt>
        <dd>{s.events.join(', ')}</dd>
      </dl>
      <DeliveryLog
        subscriptionId={id}
        events={s.events}
        version={logVersion}
        failingSince={s.failing_since}
      />
      <EditSubscription
        subscription={s}
        onSaved={() => {
          setNotice('Subscription saved.');
          subscription.reload();
        }}
      />
    </Page>
  );
}

function RotateSecretButton({
  id,
  onRotated,
}: {
  id: string;
  onRotated(r: components['schemas']['RotatedWebhookSecret']): void;
}) {
  const [error, setError] = useState<ApiError>();
  return (
    <DialogButton label="Rotate secret" title="Rotate the signing secret">
      {(close) => (
        <form
          className="form"
          onSubmit={async (event) => {
            event.preventDefault();
            const hours = Number(new FormData(event.currentTarget).get('hours'));
            const answer = await client.post('/api/v1/settings/webhooks/{id}/rotate-secret', {
              path: { id },
              body: { expire_previous_in_hours: hours },
            });
            setError(answer.error);
            if (answer.data) {
              close();
              onRotated(answer.data);
            }
          }}
        >
          <ErrorBanner error={error} />
          <Field
            label="Keep signing with the current secret for (hours)"
            hint="0 to 24: both signatures are sent meanwhile. 0 retires it now (a leaked secret)."
            error={fieldErrors(error).expire_previous_in_hours}
          >
            {(props) => (
              <input
                {...props}
                name="hours"
                type="number"
                min={0}
                max={24}
                defaultValue={24}
                required
              />
            )}
          </Field>
          <div className="row">
            <button type="submit" className="button button-primary">
              Rotate
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

function EditSubscription({
  subscription,
  onSaved,
}: {
  subscription: Subscription;
  onSaved(): void;
}) {
  const [error, setError] = useState<ApiError>();
  const errors = fieldErrors(error);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const answer = await client.patch('/api/v1/settings/webhooks/{id}', {
      path: { id: subscription.id },
      body: {
        url: String(form.get('url')).trim(),
        description: String(form.get('description') ?? '').trim(),
        events: form.getAll('events').map(String) as never,
        enabled: form.get('enabled') === 'on',
      },
    });
    setError(answer.error);
    if (answer.data) onSaved();
  };
  return (
    <section className="card" aria-labelledby="edit-subscription">
      <h2 id="edit-subscription">Edit</h2>
      <form className="form" onSubmit={submit} key={subscription.updated_at}>
        {error && Object.keys(errors).length === 0 ? <ErrorBanner error={error} /> : null}
        <Field label="Endpoint URL" required error={errors.url}>
          {(props) => (
            <input {...props} name="url" type="url" required defaultValue={subscription.url} />
          )}
        </Field>
        <Field label="Description" error={errors.description}>
          {(props) => (
            <input
              {...props}
              name="description"
              maxLength={500}
              defaultValue={subscription.description}
            />
          )}
        </Field>
        <EventPicker selected={subscription.events} error={errors.events} />
        <label className="check">
          <input type="checkbox" name="enabled" defaultChecked={subscription.enabled} />
          <span>Enabled</span>
        </label>
        <button type="submit" className="button button-primary">
          Save
        </button>
      </form>
    </section>
  );
}
