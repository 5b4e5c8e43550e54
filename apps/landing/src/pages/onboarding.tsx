import type { OnboardingClaim } from '../onboarding';
import { ErrorSummary, Field, type FormState, PostForm } from './fields';
import { Layout } from './layout';

const LABELS = { reference: 'Purchase reference' };

const META = {
  title: 'Claim your account',
  description: 'After your purchase: get the first login of your new account, once.',
  path: '/onboarding',
  noindex: true,
} as const;

/**
 * `/onboarding`: the reference of the purchase (prefilled from `?reference=`, where the
 * checkout sends the buyer back), posted to `/onboarding`. Refused: the same form, its error.
 */
export function OnboardingPage(props: { origin: string; state: FormState }) {
  return (
    <Layout {...META} origin={props.origin}>
      <div class="wrap narrow">
        <section aria-labelledby="onboarding-title">
          <h1 id="onboarding-title">Claim your account</h1>
          <p class="section-intro">
            Thank you for your purchase. Enter its reference to get the first login of your new
            account. It is shown once: keep the password somewhere safe, or change it after you log
            in.
          </p>
          <ErrorSummary errors={props.state.errors} labels={LABELS} />
          <PostForm action="/onboarding" label="Claim your account">
            <Field
              state={props.state}
              name="reference"
              label={LABELS.reference}
              hint="It is in the address of the page the payment brought you back to (landing gave it to your checkout; the payment provider's own order number is not it)."
              required
              autocomplete="off"
              maxlength={200}
            />
            <div>
              <button class="button" type="submit">
                Show my login
              </button>
            </div>
          </PostForm>
        </section>
      </div>
    </Layout>
  );
}

/** The claimed login, shown this once (the page is `no-store`; a reload claims again and is refused). */
export function ClaimedPage(props: { origin: string; claim: OnboardingClaim; consoleUrl: string }) {
  const { claim } = props;
  return (
    <Layout {...META} origin={props.origin}>
      <div class="wrap narrow">
        <section aria-labelledby="claimed-title">
          <h1 id="claimed-title">Your account is ready</h1>
          <div class="notice ok" role="status">
            <p>
              {claim.password
                ? 'This password is shown only this once. Copy it now, then log in and change it. If this e-mail already had an account with us, it keeps its own password: log in with that one instead.'
                : 'Log in with the password of this e-mail’s account.'}
            </p>
          </div>
          <dl class="secret">
            <dt>Account</dt>
            <dd>{claim.tenant}</dd>
            <dt>Login e-mail</dt>
            <dd>{claim.email}</dd>
            {claim.password && (
              <>
                <dt>Password</dt>
                <dd class="password">{claim.password}</dd>
              </>
            )}
          </dl>
          <p>
            <a class="button" href={props.consoleUrl}>
              Log in to the console
            </a>
          </p>
        </section>
      </div>
    </Layout>
  );
}
