import type { ApiError, components } from '@erp/sdk';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading } from '../ui/alert';
import { Field } from '../ui/field';
import { formatDateTime } from '../ui/format';
import { Page } from '../ui/page';
import { SecretOnce } from '../ui/secret-once';
import { EventPicker } from './event-picker';
import { subscriptionState } from './webhook-health';

type Created = components['schemas']['CreatedWebhookSubscription'];

/** Settings → Webhooks: the subscriptions and a form to add one (its secret shown once). */
export function WebhooksPage() {
  const subscriptions = useLoad(() => client.get('/api/v1/settings/webhooks'), []);
  const [created, setCreated] = useState<Created>();

  return (
    <Page title="Webhooks">
      <p className="lead">
        Subscriptions receive signed <code>POST</code> requests when business events happen.
      </p>
      {created ? (
        <SecretOnce
          title="Subscription created: its signing secret"
          secret={created.secret}
          note="Store it in the receiver now: it verifies the X-Service-Signature header and is not shown again (rotate it if lost)."
          onDone={() => setCreated(undefined)}
        />
      ) : null}
      {created ? (
        <p>
          <Link href={`/settings/webhooks/${created.id}`}>Open the new subscription</Link>
        </p>
      ) : null}
      <section aria-labelledby="subscriptions-title">
        <h2 id="subscriptions-title">Subscriptions</h2>
        <ErrorBanner error={subscriptions.error} />
        {subscriptions.data ? (
          subscriptions.data.data.length === 0 ? (
            <p>No subscription yet.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Endpoint</th>
                    <th scope="col">Events</th>
                    <th scope="col">State</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {subscriptions.data.data.map((s) => (
                    <tr key={s.id}>
                      <th scope="row">
                        <Link href={`/settings/webhooks/${s.id}`} className="url">
                          {s.url}
                        </Link>
                        {s.description ? <div className="muted small">{s.description}</div> : null}
                      </th>
                      <td>{s.events.length}</td>
                      <td>
                        {s.disabled_reason ? (
                          <strong className="badge badge-failed">{subscriptionState(s)}</strong>
                        ) : (
                          subscriptionState(s)
                        )}
                      </td>
                      <td>{formatDateTime(s.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        ) : subscriptions.loading ? (
          <Loading what="subscriptions" />
        ) : null}
      </section>
      <CreateSubscriptionForm
        onCreated={(subscription) => {
          setCreated(subscription);
          subscriptions.reload();
        }}
      />
    </Page>
  );
}

function CreateSubscriptionForm({ onCreated }: { onCreated(s: Created): void }) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const errors = fieldErrors(error);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setBusy(true);
    const description = String(form.get('description') ?? '').trim();
    const answer = await client.post('/api/v1/settings/webhooks', {
      body: {
        url: String(form.get('url')).trim(),
        events: form.getAll('events').map(String) as never,
        ...(description ? { description } : {}),
        enabled: form.get('enabled') === 'on',
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
    <section className="card" aria-labelledby="create-subscription">
      <h2 id="create-subscription">Add a subscription</h2>
      <form className="form" onSubmit={submit}>
        {error && Object.keys(errors).length === 0 ? <ErrorBanner error={error} /> : null}
        <Field
          label="Endpoint URL"
          required
          error={errors.url}
          hint="Where deliveries are POSTed (https)."
        >
          {(props) => <input {...props} name="url" type="url" required inputMode="url" />}
        </Field>
        <Field label="Description" error={errors.description}>
          {(props) => <input {...props} name="description" maxLength={500} />}
        </Field>
        <EventPicker error={errors.events} />
        <label className="check">
          <input type="checkbox" name="enabled" defaultChecked />
          <span>Enabled</span>
        </label>
        <button type="submit" className="button button-primary" aria-disabled={busy}>
          Add subscription
        </button>
      </form>
    </section>
  );
}
