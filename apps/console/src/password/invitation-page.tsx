import type { components } from '@erp/sdk';
import { useState } from 'react';
import { Link } from 'wouter';
import { client } from '../api/client';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading } from '../ui/alert';
import { AcceptInvitationForm } from './accept-invitation-form';
import { CardScreen } from './card-screen';
import { JoinInvitation } from './join-invitation';
import { useLinkToken } from './link-token';

export type Invitation = components['schemas']['Invitation'];

/**
 * `/invitation?token=…` (SPEC §3, §13): the invitation the link carries; someone without an
 * account chooses a name and a password, someone with one signs in to it; either way they land
 * in the organisation that invited them.
 */
export function InvitationPage() {
  const token = useLinkToken();
  return (
    <CardScreen title="Join your organisation">
      {token ? (
        <Invitation token={token} />
      ) : (
        <p>
          This address lacks its invitation. Open the link from your e-mail again, or ask whoever
          invited you to send a new one.
        </p>
      )}
    </CardScreen>
  );
}

function Invitation({ token }: { token: string }) {
  const invitation = useLoad(
    (signal) => client.post('/api/v1/auth/invitations/lookup', { body: { token }, signal }),
    [token],
  );
  // An account that turns out to have a password after all accepts by signing in.
  const [existing, setExisting] = useState(false);
  if (invitation.error?.code === 'lien_invalide') {
    return (
      <div className="alert alert-error" role="alert">
        <p>{invitation.error.message}</p>
        <p>An invitation works once, within 7 days: whoever invited you can send a new one.</p>
        <p>
          <Link href="/login">Go to log in</Link>
        </p>
      </div>
    );
  }
  if (invitation.error) return <ErrorBanner error={invitation.error} />;
  if (!invitation.data) return <Loading what="your invitation" />;
  const data = invitation.data;
  return (
    <>
      <p>
        You are invited to join <strong>{data.tenant.name}</strong> (<code>{data.tenant.slug}</code>
        ) as <strong className="id">{data.email}</strong>. The link works until{' '}
        {new Date(data.expires_at).toLocaleString('en-GB')}.
      </p>
      {data.account === 'new' && !existing ? (
        <AcceptInvitationForm
          token={token}
          invitation={data}
          onAccountExists={() => setExisting(true)}
        />
      ) : (
        <JoinInvitation token={token} invitation={data} />
      )}
    </>
  );
}
