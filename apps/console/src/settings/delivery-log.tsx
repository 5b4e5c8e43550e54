import type { ApiError, components } from '@erp/sdk';
import { useEffect, useState } from 'react';
import { client } from '../api/client';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading, Notice } from '../ui/alert';
import { Field } from '../ui/field';
import { formatDateTime } from '../ui/format';

type Delivery = components['schemas']['WebhookDelivery'];
const STATUSES = ['pending', 'delivered', 'failed'] as const;
const POLL_MS = 1500;

/**
 * A subscription's delivery log: filters (status, event), pages, each delivery's attempts,
 * replay, and recovery of every failure since a time. While a delivery is pending the log
 * refreshes itself, so a test delivery is seen arriving.
 */
export function DeliveryLog({
  subscriptionId,
  events,
  version,
  failingSince,
}: {
  subscriptionId: string;
  /** When the endpoint began failing: where a recovery starts by default. */
  failingSince?: string | null;
  /** The subscription's events: what the event filter offers, with the test event. */
  events: readonly string[];
  version: number;
}) {
  const [status, setStatus] = useState('');
  const [event, setEvent] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const cursor = cursors.at(-1);
  const log = useLoad(
    () =>
      client.get('/api/v1/settings/webhooks/{id}/deliveries', {
        path: { id: subscriptionId },
        query: {
          ...(status ? { status: status as Delivery['status'] } : {}),
          ...(event ? { event: event as never } : {}),
          ...(cursor ? { cursor } : {}),
        },
      }),
    [subscriptionId, status, event, cursor, version],
  );
  const pending = log.data?.data.some((d) => d.status === 'pending');
  const { reload } = log;
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(reload, POLL_MS);
    return () => clearTimeout(timer);
  });

  const replay = async (delivery: Delivery) => {
    const answer = await client.post('/api/v1/settings/webhooks/{id}/deliveries/{did}/retry', {
      path: { id: subscriptionId, did: delivery.id },
    });
    setError(answer.error);
    if (answer.data) setNotice(`Delivery of ${delivery.event_type} replayed.`);
    reload();
  };

  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title">Delivery log</h2>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Status">
          {(props) => (
            <select
              {...props}
              value={status}
              onChange={(e) => {
                setStatus(e.target.value);
                setCursors([]);
              }}
            >
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Event">
          {(props) => (
            <select
              {...props}
              value={event}
              onChange={(e) => {
                setEvent(e.target.value);
                setCursors([]);
              }}
            >
              <option value="">Any</option>
              {[...events, 'webhook.test'].map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          )}
        </Field>
        <button type="button" className="button" onClick={reload}>
          Refresh
        </button>
      </form>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={error ?? log.error} />
      {log.data ? (
        log.data.data.length === 0 ? (
          <p>No delivery{status || event ? ' matches these filters' : ' yet'}.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last response</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {log.data.data.map((d) => (
                  <DeliveryRow
                    key={d.id}
                    delivery={d}
                    subscriptionId={subscriptionId}
                    open={open === d.id}
                    onToggle={() => setOpen(open === d.id ? undefined : d.id)}
                    onReplay={() => replay(d)}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : log.loading ? (
        <Loading what="deliveries" />
      ) : null}
      <div className="row">
        {cursors.length ? (
          <button
            type="button"
            className="button"
            onClick={() => setCursors((c) => c.slice(0, -1))}
          >
            Newer deliveries
          </button>
        ) : null}
        {log.data?.next_cursor ? (
          <button
            type="button"
            className="button"
            onClick={() => setCursors((c) => [...c, log.data!.next_cursor!])}
          >
            Older deliveries
          </button>
        ) : null}
      </div>
      <RecoverForm
        subscriptionId={subscriptionId}
        onRecovered={reload}
        failingSince={failingSince ?? null}
      />
    </section>
  );
}

function DeliveryRow({
  delivery: d,
  subscriptionId,
  open,
  onToggle,
  onReplay,
}: {
  delivery: Delivery;
  subscriptionId: string;
  open: boolean;
  onToggle(): void;
  onReplay(): void;
}) {
  const detailId = `delivery-${d.id}`;
  return (
    <>
      <tr>
        <td>{formatDateTime(d.created_at)}</td>
        <td>
          <code>{d.event_type}</code>
        </td>
        <td>
          <span className={`badge badge-${d.status}`}>{d.status}</span>
        </td>
        <td>{d.attempts}</td>
        <td>{d.last_response_status ?? d.last_error ?? '—'}</td>
        <td className="actions">
          <button
            type="button"
            className="button"
            aria-expanded={open}
            aria-controls={detailId}
            onClick={onToggle}
          >
            Attempts
            <span className="visually-hidden">
              {' '}
              of {d.event_type} at {formatDateTime(d.created_at)}
            </span>
          </button>
          <button type="button" className="button" onClick={onReplay}>
            Replay
            <span className="visually-hidden">
              {' '}
              {d.event_type} at {formatDateTime(d.created_at)}
            </span>
          </button>
        </td>
      </tr>
      {open ? (
        <tr id={detailId}>
          <td colSpan={6}>
            <Attempts key={d.attempts} subscriptionId={subscriptionId} deliveryId={d.id} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function Attempts({ subscriptionId, deliveryId }: { subscriptionId: string; deliveryId: string }) {
  const detail = useLoad(
    () =>
      client.get('/api/v1/settings/webhooks/{id}/deliveries/{did}', {
        path: { id: subscriptionId, did: deliveryId },
      }),
    [subscriptionId, deliveryId],
  );
  if (detail.error) return <ErrorBanner error={detail.error} />;
  if (!detail.data) return <Loading what="attempts" />;
  const attempts = detail.data.attempt_log;
  return (
    <div className="attempts">
      <p className="small">
        Delivery <code>{detail.data.id}</code>
        {detail.data.next_attempt_at
          ? `, next attempt ${formatDateTime(detail.data.next_attempt_at)}`
          : ''}
      </p>
      {attempts.length === 0 ? (
        <p>No attempt yet.</p>
      ) : (
        <ol>
          {attempts.map((a) => (
            <li key={a.attempt}>
              <p>
                <strong>Attempt {a.attempt}</strong>
                {a.manual ? ' (manual)' : ''} · {formatDateTime(a.started_at)} · {a.duration_ms} ms
                · {a.response_status !== null ? `HTTP ${a.response_status}` : 'no response'}
              </p>
              {a.error ? <p className="field-error">{a.error}</p> : null}
              {a.response_excerpt ? <pre className="excerpt">{a.response_excerpt}</pre> : null}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function RecoverForm({
  subscriptionId,
  onRecovered,
  failingSince,
}: {
  subscriptionId: string;
  onRecovered(): void;
  failingSince: string | null;
}) {
  const [error, setError] = useState<ApiError>();
  const [result, setResult] = useState<string>();
  // From when the endpoint began failing, if it is; else the last day.
  const from = failingSince ? new Date(failingSince) : new Date(Date.now() - 86_400_000);
  const local = new Date(from.getTime() - from.getTimezoneOffset() * 60_000)
    .toISOString()
    .slice(0, 16);
  return (
    <form
      className="form card"
      aria-labelledby="recover-title"
      onSubmit={async (event) => {
        event.preventDefault();
        const since = new Date(String(new FormData(event.currentTarget).get('since')));
        const answer = await client.post('/api/v1/settings/webhooks/{id}/recover', {
          path: { id: subscriptionId },
          body: { since: since.toISOString() },
        });
        setError(answer.error);
        if (answer.data) {
          setResult(`${answer.data.recovered} failed deliveries queued again.`);
          onRecovered();
        }
      }}
    >
      <h3 id="recover-title">Recover failed deliveries</h3>
      <ErrorBanner error={error} />
      {result ? <Notice>{result}</Notice> : null}
      <Field
        label="Failed since"
        hint="Your local time; at most 30 days back, or since the endpoint began failing."
      >
        {(props) => (
          <input {...props} name="since" type="datetime-local" required defaultValue={local} />
        )}
      </Field>
      <button type="submit" className="button">
        Replay failed deliveries
      </button>
    </form>
  );
}
