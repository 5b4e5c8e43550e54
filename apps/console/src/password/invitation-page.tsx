import { Link } from 'wouter';
import { CardScreen } from './card-screen';
import { SetPasswordForm } from './set-password-form';

/** `/invitation?token=…`: the invitee chooses their password, then lands in the console. */
export function InvitationPage() {
  const token = new URLSearchParams(window.location.search).get('token');
  return (
    <CardScreen title="Join your organisation">
      {token ? (
        <>
          <p>You were invited to the ERP console. Choose the password you will log in with.</p>
          <SetPasswordForm token={token} submitLabel="Set my password and join" />
        </>
      ) : (
        <p>
          This address lacks its invitation. Open the link from your e-mail again, or{' '}
          <Link href="/reset-password">ask for a new link</Link>.
        </p>
      )}
    </CardScreen>
  );
}
