import type { ApiError, components } from '@erp/sdk';
import { useState } from 'react';
import { client } from '../api/client';
import { ErrorBanner } from '../ui/alert';
import { formatDateTime } from '../ui/format';

type Subscription = components['schemas']['WebhookSubscription'];

/** Why the platform disabled a subscription, in words (SPEC §12). */
export function disabledReasonText(s: Subscription): string {
  switch (s.disabled_reason) {
    case 'gone':
      return 'the endpoint answered 410 Gone: it says it no longer exists';
    case 'failing':
      return `every delivery attempt has failed since ${formatDateTime(s.failing_since)} (5 days or more)`;
    case 'failed_deliveries':
      return `${s.consecutive_failures} deliveries in a row failed after all their retries`;
    default:
      return 'disabled by a user';
  }
}

/** The state cell of a subscription list: what is wrong, in a few words. */
export function subscriptionState(s: Subscription): string {
  if (!s.enabled) return s.disabled_reason ? 'Disabled: endpoint kept failing' : 'Disabled';
  return s.failing_since ? `Failing since ${formatDateTime(s.failing_since)}` : 'Enabled';
}

/**
 * A subscription the platform disabled, said at the top of its page with what to do: re-enable
 * it, and replay what failed since the endpoint began failing (`recover` from `failing_since`).
 * An enabled endpoint that is failing is said too, before it comes to that.
 */
export function WebhookHealth({
  subscription: s,
  onChanged,
}: {
  subscription: Subscription;
  onChanged(notice: string): void;
}) {
  const [error, setError] = useState<ApiError>();
  if (s.enabled && !s.failing_since) return null;
  if (s.enabled) {
    return (
      <div className="alert alert-info" role="status">
        <p>
          <strong>This endpoint is failing.</strong> Every attempt since{' '}
          {formatDateTime(s.failing_since)} failed
          {s.consecutive_failures
            ? `, and ${s.consecutive_failures} ${s.consecutive_failures === 1 ? 'delivery' : 'deliveries'} used up their retries`
            : ''}
          . It is disabled after 5 days of failures or 500 failed deliveries in a row.
        </p>
      </div>
    );
  }
  if (!s.disabled_reason) return null;

  const reEnable = async (recover: boolean) => {
    const enabled = await client.patch('/api/v1/settings/webhooks/{id}', {
      path: { id: s.id },
      body: { enabled: true },
    });
    setError(enabled.error);
    if (enabled.error) return;
    if (!recover || !s.failing_since) return onChanged('Subscription enabled again.');
    const recovered = await client.post('/api/v1/settings/webhooks/{id}/recover', {
      path: { id: s.id },
      body: { since: s.failing_since },
    });
    setError(recovered.error);
    if (recovered.data)
      onChanged(
        `Subscription enabled again; ${recovered.data.recovered} failed deliveries queued again.`,
      );
  };

  return (
    <section className="alert alert-error health" aria-labelledby="health-title">
      <h2 id="health-title">Disabled by the platform</h2>
      <p>
        Since {formatDateTime(s.disabled_at)} this subscription receives nothing:{' '}
        {disabledReasonText(s)}.
      </p>
      <p className="alert-code">
        <code>disabled_reason: {s.disabled_reason}</code>
      </p>
      <p>Fix the receiver, then enable the subscription again.</p>
      <ErrorBanner error={error} />
      <div className="row">
        {s.failing_since ? (
          <button
            type="button"
            className="button button-primary health-action"
            onClick={() => reEnable(true)}
          >
            Re-enable and recover since {formatDateTime(s.failing_since)}
          </button>
        ) : null}
        <button type="button" className="button health-action" onClick={() => reEnable(false)}>
          Re-enable only
        </button>
      </div>
    </section>
  );
}
