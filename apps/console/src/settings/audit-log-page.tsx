import type { components } from '@erp/sdk';
import { useState } from 'react';
import { client } from '../api/client';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading } from '../ui/alert';
import { Field } from '../ui/field';
import { formatDateTime } from '../ui/format';
import { Page } from '../ui/page';

type Entry = components['schemas']['AuditEntry'];
type Action = components['schemas']['AuditAction'];

/** Each action in words; typed against the contract's list, so a new action must be named here. */
const ACTIONS: Record<Action, string> = {
  'login.succeeded': 'Signed in',
  'login.failed': 'Sign-in refused',
  'api_key.created': 'API key created',
  'api_key.rolled': 'API key rolled',
  'api_key.revoked': 'API key revoked',
  'webhook.created': 'Webhook created',
  'webhook.updated': 'Webhook changed',
  'webhook.deleted': 'Webhook deleted',
  'webhook.secret_rotated': 'Webhook secret rotated',
  'webhook.disabled': 'Webhook disabled by the platform',
  'member.added': 'Member added',
  'member.updated': 'Member changed',
  'member.removed': 'Member removed',
  'invitation.sent': 'Invitation sent',
  'invitation.updated': 'Invitation changed',
  'invitation.withdrawn': 'Invitation withdrawn',
  'invitation.accepted': 'Invitation accepted',
  'sso.updated': 'Single sign-on saved',
  'sso.deleted': 'Single sign-on removed',
  'password_reset.requested': 'Password reset asked',
  'password_reset.completed': 'Password reset done',
};

const TARGETS: Record<NonNullable<Entry['target']>['type'], string> = {
  api_key: 'API key',
  webhook_subscription: 'Webhook',
  user: 'User',
  invitation: 'Invitation',
  sso_settings: 'Single sign-on',
};

function actorText(entry: Entry): string {
  if (!entry.actor) return entry.action === 'webhook.disabled' ? 'The platform' : 'Unknown';
  const name = entry.actor.name ?? `deleted ${entry.actor.type === 'user' ? 'user' : 'key'}`;
  return entry.actor.type === 'api_key' ? `${name} (API key)` : name;
}

function detailText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(detailText).join(', ') || '—';
  return JSON.stringify(value);
}

/** The details as `key: value` lines (never a secret: the portal keeps none in the log). */
function Details({ details }: { details: Entry['details'] }) {
  const pairs = Object.entries(details);
  if (pairs.length === 0) return <span className="muted">—</span>;
  return (
    <dl className="audit-details">
      {pairs.map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{detailText(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Settings → Audit log (admins): who did what to the tenant's security, from where, newest
 * first; filtered by action and by actor (a member or an API key), a page at a time.
 */
export function AuditLogPage() {
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const log = useLoad(
    () =>
      client.get('/api/v1/settings/audit-log', {
        query: {
          ...(action ? { action: action as Action } : {}),
          ...(actor ? { actor } : {}),
          ...(cursor ? { cursor } : {}),
        },
      }),
    [action, actor, cursor],
  );
  const users = useLoad(() => client.get('/api/v1/settings/users'), []);
  // Pending invitations have never acted: their ids are the invitations', not accounts'.
  const members = users.data?.data.filter((u) => u.status === 'active') ?? [];
  const keys = useLoad(() => client.get('/api/v1/settings/api-keys'), []);

  return (
    <Page title="Audit log">
      <p className="lead">
        Security operations in this organisation: sign-ins, keys, webhooks, members, single sign-on
        and password resets, with who did them and from which address. Rows are never changed or
        deleted.
      </p>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <Field label="Action">
          {(props) => (
            <select
              {...props}
              value={action}
              onChange={(e) => {
                setAction(e.target.value);
                setCursors([]);
              }}
            >
              <option value="">Any</option>
              {Object.entries(ACTIONS).map(([name, label]) => (
                <option key={name} value={name}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Actor">
          {(props) => (
            <select
              {...props}
              value={actor}
              onChange={(e) => {
                setActor(e.target.value);
                setCursors([]);
              }}
            >
              <option value="">Anyone</option>
              {members.length ? (
                <optgroup label="Members">
                  {members.map((u) => (
                    <option key={u.id} value={u.id}>
                      {u.name} ({u.email})
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {keys.data?.data.length ? (
                <optgroup label="API keys">
                  {keys.data.data.map((k) => (
                    <option key={k.id} value={k.id}>
                      {k.name} ({k.prefix})
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          )}
        </Field>
        <button type="button" className="button" onClick={log.reload}>
          Refresh
        </button>
      </form>
      <ErrorBanner error={log.error} />
      {log.data ? (
        log.data.data.length === 0 ? (
          <p>Nothing recorded{action || actor ? ' matches these filters' : ' yet'}.</p>
        ) : (
          <div className="table-wrap">
            <table className="stacked">
              <caption className="visually-hidden">Audit log, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Action</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Target</th>
                  <th scope="col">Address</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {log.data.data.map((entry) => (
                  <tr key={entry.id}>
                    <td data-label="Time" className="nowrap">
                      <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                    </td>
                    <th scope="row" data-label="Action">
                      {ACTIONS[entry.action]}
                      <div className="muted small">
                        <code>{entry.action}</code>
                      </div>
                    </th>
                    <td data-label="Actor">{actorText(entry)}</td>
                    <td data-label="Target">
                      {entry.target ? (
                        <>
                          {TARGETS[entry.target.type]}
                          <div className="muted small id">{entry.target.id}</div>
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td data-label="Address">{entry.address ?? '—'}</td>
                    <td data-label="Details">
                      <Details details={entry.details} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : log.loading ? (
        <Loading what="the audit log" />
      ) : null}
      <div className="row">
        {cursors.length ? (
          <button
            type="button"
            className="button"
            onClick={() => setCursors((c) => c.slice(0, -1))}
          >
            Newer entries
          </button>
        ) : null}
        {log.data?.next_cursor ? (
          <button
            type="button"
            className="button"
            onClick={() => setCursors((c) => [...c, log.data!.next_cursor!])}
          >
            Older entries
          </button>
        ) : null}
      </div>
    </Page>
  );
}
