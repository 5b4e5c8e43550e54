import { useState } from 'react';
import { Link } from 'wouter';
import { isAdmin, useAuth, useMe } from '../api/auth';
import { humanize } from '../ui/format';
import { Page } from '../ui/page';

/** The organisation chooser (several memberships) and an overview of the current one. */
export function HomePage() {
  const me = useMe();
  const { chooseTenant } = useAuth();
  const [switching, setSwitching] = useState<string>();
  const current = me.memberships.find((m) => m.tenant.id === me.tenant?.id);

  return (
    <Page title={me.tenant ? me.tenant.name : 'Choose an organisation'}>
      {current ? (
        <section aria-labelledby="overview" className="card">
          <h2 id="overview">Overview</h2>
          <dl className="facts">
            <dt>Your roles</dt>
            <dd>{current.roles.join(', ')}</dd>
            <dt>Modules</dt>
            <dd>{current.tenant.modules.map(humanize).join(', ') || 'none'}</dd>
          </dl>
          <ul className="quick-links">
            <li>
              <Link href="/records">Browse records</Link>
            </li>
            <li>
              <Link href="/records/sales-orders">Sales orders</Link>
            </li>
            {isAdmin(me) ? (
              <li>
                <Link href="/settings/api-keys">API keys</Link>
              </li>
            ) : null}
            {me.rights.includes('webhooks') ? (
              <li>
                <Link href="/settings/webhooks">Webhooks</Link>
              </li>
            ) : null}
          </ul>
        </section>
      ) : null}
      {me.memberships.length > 1 || !current ? (
        <section aria-labelledby="organisations" className="card">
          <h2 id="organisations">{current ? 'Switch organisation' : 'Your organisations'}</h2>
          {me.memberships.length === 0 ? (
            <p>You are not a member of any organisation.</p>
          ) : (
            <ul className="choices">
              {me.memberships.map((m) => (
                <li key={m.tenant.id}>
                  <button
                    type="button"
                    className="button"
                    disabled={m.tenant.id === me.tenant?.id || switching !== undefined}
                    aria-current={m.tenant.id === me.tenant?.id ? 'true' : undefined}
                    onClick={async () => {
                      setSwitching(m.tenant.slug);
                      await chooseTenant(m.tenant.slug);
                      setSwitching(undefined);
                    }}
                  >
                    {m.tenant.name} <span className="muted">({m.tenant.slug})</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </Page>
  );
}
