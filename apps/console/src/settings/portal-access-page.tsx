import type { ApiError } from '@erp/sdk';
import { type FormEvent, useState } from 'react';
import { client } from '../api/client';
import { fieldErrors } from '../api/errors';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading, Notice } from '../ui/alert';
import { Field } from '../ui/field';
import { formatDateTime } from '../ui/format';
import { Page } from '../ui/page';

/** Settings → Portal access (platform operators): where the ERP sync goes, how it went. */
export function PortalAccessPage() {
  const access = useLoad(() => client.get('/api/v1/settings/portal-access'), []);
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  const errors = fieldErrors(error);
  const a = access.data;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const url = String(form.get('sync_url') ?? '').trim();
    const answer = await client.put('/api/v1/settings/portal-access', {
      body: { sync_url: url || null, enabled: form.get('enabled') === 'on' },
    });
    setError(answer.error);
    setSaved(!answer.error);
    if (!answer.error) access.reload();
  };

  return (
    <Page title="Portal access">
      <p className="lead">
        The worker pushes tenants, plans and metadata to the marketing site (landing) on a schedule
        and at every save here.
      </p>
      <ErrorBanner error={access.error} />
      {a ? (
        <>
          <dl className="facts card">
            <dt>Last push</dt>
            <dd>
              {a.last_result.status ?? 'none yet'}
              {a.last_result.attempted_at ? ` · ${formatDateTime(a.last_result.attempted_at)}` : ''}
            </dd>
            <dt>Last success</dt>
            <dd>{formatDateTime(a.last_result.succeeded_at)}</dd>
            <dt>Target</dt>
            <dd className="url">{a.last_result.target ?? '—'}</dd>
            {a.last_result.http_status !== null ? (
              <>
                <dt>HTTP status</dt>
                <dd>{a.last_result.http_status}</dd>
              </>
            ) : null}
            {a.last_result.error ? (
              <>
                <dt>Error</dt>
                <dd>{a.last_result.error}</dd>
              </>
            ) : null}
            {a.last_result.counts ? (
              <>
                <dt>Stored by landing</dt>
                <dd>
                  {a.last_result.counts.tenants} tenants, {a.last_result.counts.plans} plans,{' '}
                  {a.last_result.counts.metadata} metadata
                </dd>
              </>
            ) : null}
          </dl>
          {saved ? <Notice>Saved: a push was queued.</Notice> : null}
          <form className="form card" onSubmit={submit} key={a.updated_at}>
            {error && Object.keys(errors).length === 0 ? <ErrorBanner error={error} /> : null}
            <Field
              label="Sync URL"
              error={errors.sync_url}
              hint="Landing's /api/erp-sync; empty falls back to the worker's LANDING_SYNC_URL."
            >
              {(props) => (
                <input {...props} name="sync_url" type="url" defaultValue={a.sync_url ?? ''} />
              )}
            </Field>
            <label className="check">
              <input type="checkbox" name="enabled" defaultChecked={a.enabled} />
              <span>Push enabled</span>
            </label>
            <button type="submit" className="button button-primary">
              Save
            </button>
          </form>
        </>
      ) : access.loading ? (
        <Loading what="the sync settings" />
      ) : null}
    </Page>
  );
}
